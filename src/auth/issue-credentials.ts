// `svctrail issue-credentials --user alice --group devs [--group ops] [--data-dir ./data]
//  [--server https://127.0.0.1:6443] [--out path] [--token] [--policy readonly|status-writer|admin
//  [--namespace ns]]`: mints credentials for a user and writes a kubeconfig for them. By default a
// client certificate signed by the data dir's CA (CN=user, O=group...); with --token a new line in
// tokens.csv instead. --policy also appends the user's ABAC lines to policy.jsonl.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomically } from '../tls/atomic-file-writer';
import { issueClientCertificate, loadCertificateAuthority } from '../tls/certificates';
import { DEFAULT_DATA_DIR, ensureDataDir } from '../tls/data-dir';
import { renderKubeconfig } from '../kubeconfig/kubeconfig';
import type { PolicySpec } from '../authz/abac-policy';
import { appendPolicyLines, ensureSelfReviewLines, policyFilePath } from '../authz/policy-file';
import { AUDIT_WEBHOOK_PATH, policyFor, type PolicyPreset } from '../authz/policy-presets';
import { appendTokenRecord, generateToken, type TokenRecord } from './token-file';

export const DEFAULT_SERVER_URL = 'https://127.0.0.1:6443';

export interface IssueCredentialsOptions {
  user: string;
  groups?: readonly string[];
  dataDir?: string;
  server?: string;
  /** Defaults to `<dataDir>/users/<user>.kubeconfig`. */
  out?: string;
  method?: 'certificate' | 'token';
  /** Token method only: the uid column; defaults to the user name. */
  uid?: string;
  /** Appends this preset's policy lines for the user to `<dataDir>/policy.jsonl`. */
  policy?: PolicyPreset;
  /** With `policy` readonly or status-writer: the namespace it covers (default every one). */
  namespace?: string;
  now: () => Date;
}

export interface IssuedCredentials {
  method: 'certificate' | 'token';
  user: string;
  groups: string[];
  kubeconfigPath: string;
  certPem?: string;
  token?: string;
  /** The policy lines appended to policy.jsonl, if any. */
  policyLines?: PolicySpec[];
  /** Things the operator should know: an uncovered server name, a token needing a restart. */
  warnings: string[];
}

export async function issueCredentials(options: IssueCredentialsOptions): Promise<IssuedCredentials> {
  const method = options.method ?? 'certificate';
  const user = options.user;
  const groups = [...(options.groups ?? [])];
  validateName(user, 'user');
  for (const group of groups) {
    validateName(group, 'group');
    // The token file's groups column is split on ",".
    if (method === 'token' && group.includes(',')) throw new Error(`group "${group}" must not contain ","`);
  }
  if (options.namespace !== undefined) {
    if (options.policy === undefined) throw new Error('a namespace applies only together with a policy');
    validateName(options.namespace, 'namespace');
  }
  // Before anything is written, so a bad combination leaves no half-issued user behind.
  const policyLines = options.policy ? policyFor(options.policy, user, options.namespace) : undefined;
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const base = options.server ?? DEFAULT_SERVER_URL;
  // kube-apiserver's audit webhook posts to its kubeconfig's server URL itself: the full path.
  const server = options.policy === 'audit-webhook' ? `${base.replace(/\/+$/, '')}${AUDIT_WEBHOOK_PATH}` : base;
  const contents = await ensureDataDir({ dataDir, now: options.now, serverUrl: base });
  const warnings = [...contents.warnings];
  if (new URL(server).protocol !== 'https:') {
    warnings.push(`${server} is not https: kubectl sends no credentials over plain http`);
  }

  const kubeconfigPath = options.out ?? join(contents.paths.usersDir, `${fileNameFor(user)}.kubeconfig`);
  let issued: Pick<IssuedCredentials, 'certPem' | 'token'>;
  let kubeconfig: string;
  if (method === 'token') {
    const record: TokenRecord = { token: generateToken(), user, uid: options.uid ?? user, groups };
    await appendTokenRecord(contents.paths.tokens, record);
    warnings.push(`${contents.paths.tokens} is read at startup: restart svctrail for the new token to work`);
    issued = { token: record.token };
    kubeconfig = renderKubeconfig({ server, caPem: contents.caCertPem, user: { token: record.token }, userName: user });
  } else {
    const ca = await loadCertificateAuthority({ certPem: contents.caCertPem, keyPem: contents.caKeyPem });
    const credentials = await issueClientCertificate(ca, { user, groups }, options.now);
    issued = { certPem: credentials.certPem };
    kubeconfig = renderKubeconfig({ server, caPem: contents.caCertPem, user: credentials, userName: user });
  }

  await mkdir(dirname(kubeconfigPath), { recursive: true, mode: 0o700 });
  await writeFileAtomically(kubeconfigPath, kubeconfig, 0o600);
  if (policyLines) {
    const policyPath = policyFilePath(dataDir);
    if (await ensureSelfReviewLines(policyPath)) {
      warnings.push(`${policyPath} did not let users ask kubectl auth can-i / whoami: added the self-review lines for every authenticated user`);
    }
    await appendPolicyLines(policyPath, policyLines);
    warnings.push(`${policyPath} is read at startup: restart svctrail for the new policy to apply`);
  }
  return { method, user, groups, kubeconfigPath, ...issued, ...(policyLines ? { policyLines } : {}), warnings };
}

function validateName(value: string, what: string): void {
  if (value.trim() === '') throw new Error(`${what} name must not be empty`);
  // Control characters would corrupt the token file line and are never meaningful in a name.
  // eslint-disable-next-line no-control-regex -- control characters are what this check looks for
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new Error(`${what} name "${value}" contains control characters`);
}

/** User names such as system:serviceaccount:ns:name are fine; path separators are not. */
function fileNameFor(user: string): string {
  const safe = user.replace(/[/\\]/g, '_');
  return safe === '.' || safe === '..' ? `_${safe}` : safe;
}
