// The data directory, created (mode 0700) on first start and reused unchanged afterwards:
//
//   data/
//     svctrail.db     event log and projections (opened by src/store, not created here; 0600)
//     ca.crt          private CA: signs serving.crt and issued client certificates, and is the
//     ca.key          client CA for mTLS (0600)
//     serving.crt     https certificate, SANs 127.0.0.1, ::1, localhost (+ the --server host)
//     serving.key     (0600)
//     tokens.csv      kube-apiserver --token-auth-file format; the first line is the admin (0600)
//     policy.jsonl    kube-apiserver ABAC policy (one JSON policy per line) deciding every request
//     kubeconfig      admin kubeconfig, written after listen because the port may be 0 (0600)
//     users/          kubeconfigs written by `svctrail issue-credentials` (0700, files 0600)
//     svctrail.lock   held by the one process that owns the directory (store/data-directory-lock.ts)
//
// Every file but the two certificates is 0600 (the database and its -wal and -shm included);
// looser modes on an existing directory are tightened at start-up, with a warning.
//
// Nothing present is ever regenerated: a half-present pair (a key without its certificate) is
// an error to fix by hand, since silently minting a new CA would invalidate every issued
// credential.
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from './atomic-file-writer';
import { tightenModes } from './private-modes';
import { checkCertificateAuthorityPair, type PemCredentials } from './certificate-authority-pair';
import type { CertificateAuthority } from './certificates';
import { certificateCoversServerUrl, serverUrlHost } from './serving-names';
import { formatTokenRecord, generateToken, parseTokenFile, type TokenRecord } from '../auth/token-file';
import { SYSTEM_MASTERS_GROUP } from '../auth/user-info';
import { ensurePolicyFile, policyFilePath } from '../authz/policy-file';
import { renderKubeconfig } from '../kubeconfig/kubeconfig';

export interface DataDirPaths {
  dataDir: string;
  database: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  tokens: string;
  kubeconfig: string;
  usersDir: string;
}

export interface EnsureDataDirOptions {
  dataDir: string;
  now: () => Date;
  /** Its host is added to the serving certificate's SANs when the certificate is first made. */
  serverUrl?: string;
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
}

export interface DataDirContents {
  paths: DataDirPaths;
  caCertPem: string;
  caKeyPem: string;
  servingCertPem: string;
  servingKeyPem: string;
  tokens: TokenRecord[];
  /** Files this call wrote (names inside dataDir); empty when everything already existed. */
  created: string[];
  /** Token-file warnings, an expired serving certificate, a server URL it does not cover. */
  warnings: string[];
}

/** Where the server, the CLI and issue-credentials keep their data when no --data-dir is given. */
export const DEFAULT_DATA_DIR = './data';
export const ADMIN_USER = 'admin';
export const CA_COMMON_NAME = 'svctrail-ca';

const SECRET_MODE = 0o600;
const PUBLIC_MODE = 0o644;

export function dataDirPaths(dataDir: string): DataDirPaths {
  return {
    dataDir,
    database: join(dataDir, 'svctrail.db'),
    caCert: join(dataDir, 'ca.crt'),
    caKey: join(dataDir, 'ca.key'),
    servingCert: join(dataDir, 'serving.crt'),
    servingKey: join(dataDir, 'serving.key'),
    tokens: join(dataDir, 'tokens.csv'),
    kubeconfig: join(dataDir, 'kubeconfig'),
    usersDir: join(dataDir, 'users'),
  };
}

export async function ensureDataDir(options: EnsureDataDirOptions): Promise<DataDirContents> {
  const paths = dataDirPaths(options.dataDir);
  await mkdir(paths.dataDir, { recursive: true, mode: 0o700 });
  const created: string[] = [];
  const warnings: string[] = await tightenModes(paths.dataDir);

  const caFiles = await readPair(paths.caCert, paths.caKey);
  const servingFiles = await readPair(paths.servingCert, paths.servingKey);

  // The issuing code (certificates.ts and its X.509 library) is loaded only when something is issued.
  let ca: PemCredentials;
  let signer: CertificateAuthority | undefined;
  if (caFiles) {
    ca = { certPem: caFiles.cert, keyPem: caFiles.key };
    checkCertificateAuthorityPair(ca);
  } else if (servingFiles) {
    throw new Error(`${paths.servingCert} exists but ${paths.caCert} and ${paths.caKey} do not; ` + 'restore the CA or remove serving.crt and serving.key to start over');
  } else {
    const { createCertificateAuthority } = await import('./certificates.js');
    ca = signer = await createCertificateAuthority(CA_COMMON_NAME, options.now);
    await writeFileAtomically(paths.caKey, ca.keyPem, SECRET_MODE);
    await writeFileAtomically(paths.caCert, ca.certPem, PUBLIC_MODE);
    created.push('ca.key', 'ca.crt');
  }

  let servingCertPem: string;
  let servingKeyPem: string;
  if (servingFiles) {
    servingCertPem = servingFiles.cert;
    servingKeyPem = servingFiles.key;
    if (!new X509Certificate(servingCertPem).checkIssued(new X509Certificate(ca.certPem))) {
      throw new Error(`${paths.servingCert} was not issued by ${paths.caCert}`);
    }
  } else {
    const host = options.serverUrl ? serverUrlHost(options.serverUrl) : { dnsNames: [], ipAddresses: [] };
    const { issueServingCertificate, loadCertificateAuthority } = await import('./certificates.js');
    const serving = await issueServingCertificate(
      signer ?? (await loadCertificateAuthority(ca)),
      {
        dnsNames: [...(options.dnsNames ?? []), ...host.dnsNames],
        ipAddresses: [...(options.ipAddresses ?? []), ...host.ipAddresses],
      },
      options.now,
    );
    servingCertPem = serving.certPem;
    servingKeyPem = serving.keyPem;
    await writeFileAtomically(paths.servingKey, servingKeyPem, SECRET_MODE);
    await writeFileAtomically(paths.servingCert, servingCertPem, PUBLIC_MODE);
    created.push('serving.key', 'serving.crt');
  }

  const servingCertificate = new X509Certificate(servingCertPem);
  if (new Date(servingCertificate.validTo) <= options.now()) {
    warnings.push(`${paths.servingCert} expired on ${servingCertificate.validTo}; delete serving.crt and serving.key to reissue`);
  }
  if (options.serverUrl && !certificateCoversServerUrl(servingCertPem, options.serverUrl)) {
    warnings.push(`${paths.servingCert} has no subjectAltName for ${options.serverUrl}; clients will reject it`);
  }
  // A certificate is never reissued by itself: one made before a name was asked for lacks it.
  for (const name of [...(options.dnsNames ?? []), ...(options.ipAddresses ?? [])]) {
    if (!certificateCoversServerUrl(servingCertPem, `https://${name.includes(':') ? `[${name}]` : name}`)) {
      warnings.push(`${paths.servingCert} has no subjectAltName for ${name} (it was made before --tls-san named it); delete serving.crt and serving.key to reissue`);
    }
  }

  let tokens: TokenRecord[];
  const tokensText = await readOptional(paths.tokens);
  if (tokensText !== undefined) {
    const parsed = parseTokenFile(tokensText, paths.tokens);
    tokens = parsed.records;
    warnings.push(...parsed.warnings);
  } else {
    const admin: TokenRecord = { token: generateToken(), user: ADMIN_USER, uid: ADMIN_USER, groups: [SYSTEM_MASTERS_GROUP] };
    await writeFileAtomically(paths.tokens, formatTokenRecord(admin), SECRET_MODE);
    tokens = [admin];
    created.push('tokens.csv');
  }
  if (await ensurePolicyFile(policyFilePath(paths.dataDir), ADMIN_USER)) created.push('policy.jsonl');

  return {
    paths,
    caCertPem: ca.certPem,
    caKeyPem: ca.keyPem,
    servingCertPem,
    servingKeyPem,
    tokens,
    created,
    warnings,
  };
}

/**
 * Writes data/kubeconfig for the admin token (the first `admin` line of tokens.csv, else the
 * first system:masters line) against `serverUrl`, and returns its path.
 */
export async function writeAdminKubeconfig(dataDir: string, serverUrl: string): Promise<string> {
  const paths = dataDirPaths(dataDir);
  const caPem = await readFile(paths.caCert, 'utf8');
  const { records } = parseTokenFile(await readFile(paths.tokens, 'utf8'), paths.tokens);
  const admin = records.find((record) => record.user === ADMIN_USER) ?? records.find((record) => record.groups.includes(SYSTEM_MASTERS_GROUP));
  if (!admin) throw new Error(`${paths.tokens} has no ${ADMIN_USER} or ${SYSTEM_MASTERS_GROUP} token`);
  const text = renderKubeconfig({ server: serverUrl, caPem, user: { token: admin.token }, userName: admin.user });
  await writeFileAtomically(paths.kubeconfig, text, SECRET_MODE);
  return paths.kubeconfig;
}

async function readPair(certPath: string, keyPath: string): Promise<{ cert: string; key: string } | undefined> {
  const [cert, key] = await Promise.all([readOptional(certPath), readOptional(keyPath)]);
  if (cert !== undefined && key !== undefined) return { cert, key };
  if (cert === undefined && key === undefined) return undefined;
  const [present, missing] = cert === undefined ? [keyPath, certPath] : [certPath, keyPath];
  throw new Error(`${present} exists but ${missing} does not; restore it or remove both to regenerate`);
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
