// A private CA plus the serving and client certificates that kubectl and client-node accept
// (client-protocol.md §2.2–2.3). New keys are ECDSA P-256; a CA brought in as RSA or another
// NIST curve still loads and signs.
// @peculiar/x509 resolves its internals through tsyringe, which needs the Reflect polyfill first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import { checkCertificateAuthorityPair, type PemCredentials } from './certificate-authority-pair';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type SubtleKey = webcrypto.CryptoKey;

export type { PemCredentials };

export interface CertificateAuthority extends PemCredentials {
  readonly certificate: x509.X509Certificate;
  readonly signingKey: SubtleKey;
  readonly signingAlgorithm: EcdsaSigning | RsaSigning;
}

export interface ServingCertificateNames {
  /** Added to the loopback names, which are always present. */
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
}

export interface ClientIdentity {
  user: string;
  /** Each becomes one subject O, in order; kube-apiserver reads them as groups. */
  groups: readonly string[];
}

interface EcdsaSigning {
  name: 'ECDSA';
  namedCurve: 'P-256' | 'P-384' | 'P-521';
  hash: 'SHA-256' | 'SHA-384' | 'SHA-512';
}
interface RsaSigning {
  name: 'RSASSA-PKCS1-v1_5';
  hash: 'SHA-256';
}

export const DEFAULT_SERVING_DNS_NAMES: readonly string[] = ['localhost'];
export const DEFAULT_SERVING_IP_ADDRESSES: readonly string[] = ['127.0.0.1', '::1'];

const CA_VALIDITY_YEARS = 10;
const LEAF_VALIDITY_YEARS = 1;
// kubeadm backdates certificates by 5 minutes so that small clock skew between hosts does not
// make a fresh certificate "not yet valid" (kubeadm constants.CertificateBackdate).
const BACKDATE_MS = 5 * 60 * 1000;

const LEAF_ALGORITHM: EcdsaSigning = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

export async function createCertificateAuthority(commonName: string, now: () => Date): Promise<CertificateAuthority> {
  requireNonEmpty(commonName, 'CA common name');
  const keys = await generateKeyPair();
  const { notBefore, notAfter } = validity(now(), CA_VALIDITY_YEARS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: [{ CN: [commonName] }],
    keys,
    signingAlgorithm: LEAF_ALGORITHM,
    notBefore,
    notAfter,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    certPem: certificate.toString('pem') + '\n',
    keyPem: await exportPrivateKeyPem(keys.privateKey),
    certificate,
    signingKey: keys.privateKey,
    signingAlgorithm: LEAF_ALGORITHM,
  };
}

/** Reads a CA back from its PEM texts (PKCS#8, SEC1 or PKCS#1 key) and checks the pair belongs together. */
export async function loadCertificateAuthority(pems: PemCredentials): Promise<CertificateAuthority> {
  const nodeKey = checkCertificateAuthorityPair(pems);
  const certificate = new x509.X509Certificate(pems.certPem);
  const signingAlgorithm = signingAlgorithmFor(nodeKey.asymmetricKeyType, nodeKey.asymmetricKeyDetails?.namedCurve);
  const pkcs8 = nodeKey.export({ format: 'der', type: 'pkcs8' });
  const importAlgorithm = signingAlgorithm.name === 'ECDSA' ? { name: 'ECDSA', namedCurve: signingAlgorithm.namedCurve } : { name: signingAlgorithm.name, hash: signingAlgorithm.hash };
  const signingKey = await webcrypto.subtle.importKey('pkcs8', pkcs8, importAlgorithm, false, ['sign']);
  return { certPem: pems.certPem, keyPem: pems.keyPem, certificate, signingKey, signingAlgorithm };
}

/**
 * A serverAuth leaf. Go ignores the subject CN and checks only the SANs (client-protocol.md §2.2),
 * so every name a client may dial must be listed here.
 */
export async function issueServingCertificate(ca: CertificateAuthority, names: ServingCertificateNames, now: () => Date): Promise<PemCredentials> {
  const dnsNames = unique([...DEFAULT_SERVING_DNS_NAMES, ...(names.dnsNames ?? [])]);
  const ipAddresses = unique([...DEFAULT_SERVING_IP_ADDRESSES, ...(names.ipAddresses ?? [])]);
  for (const name of dnsNames) requireNonEmpty(name, 'DNS name');
  for (const ip of ipAddresses) {
    if (isIP(ip) === 0) throw new Error(`"${ip}" is not an IP address`);
  }
  return issueLeaf(
    ca,
    now,
    [{ CN: ['svctrail'] }],
    [
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([...dnsNames.map((value) => ({ type: 'dns' as const, value })), ...ipAddresses.map((value) => ({ type: 'ip' as const, value }))]),
    ],
  );
}

/**
 * A clientAuth leaf whose subject kube-apiserver's x509 authenticator maps to a user:
 * CN is the user name and each O a group (k8s.io/apiserver x509.CommonNameUserConversion).
 */
export async function issueClientCertificate(ca: CertificateAuthority, identity: ClientIdentity, now: () => Date): Promise<PemCredentials> {
  requireNonEmpty(identity.user, 'user name');
  for (const group of identity.groups) requireNonEmpty(group, 'group name');
  // One RDN per attribute, O before CN, as Go's pkix.Name.ToRDNSequence orders them.
  const subject = [...identity.groups.map((group) => ({ O: [group] })), { CN: [identity.user] }];
  return issueLeaf(ca, now, subject, [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])]);
}

async function issueLeaf(ca: CertificateAuthority, now: () => Date, subject: x509.JsonName, extensions: x509.Extension[]): Promise<PemCredentials> {
  const keys = await generateKeyPair();
  const period = validity(now(), LEAF_VALIDITY_YEARS);
  // A leaf outliving its CA would be rejected by verifiers anyway; stop at the CA's end.
  const notAfter = period.notAfter > ca.certificate.notAfter ? ca.certificate.notAfter : period.notAfter;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject,
    issuer: ca.certificate.subjectName,
    publicKey: keys.publicKey,
    signingKey: ca.signingKey,
    signingAlgorithm: ca.signingAlgorithm,
    notBefore: period.notBefore,
    notAfter,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...extensions,
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.certificate),
    ],
  });
  return { certPem: certificate.toString('pem') + '\n', keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

async function generateKeyPair() {
  return webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: LEAF_ALGORITHM.namedCurve }, true, ['sign', 'verify']);
}

async function exportPrivateKeyPem(key: SubtleKey): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') + '\n';
}

function signingAlgorithmFor(keyType: string | undefined, namedCurve: string | undefined): EcdsaSigning | RsaSigning {
  if (keyType === 'rsa') return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  if (keyType === 'ec') {
    switch (namedCurve) {
      case 'prime256v1':
        return { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
      case 'secp384r1':
        return { name: 'ECDSA', namedCurve: 'P-384', hash: 'SHA-384' };
      case 'secp521r1':
        return { name: 'ECDSA', namedCurve: 'P-521', hash: 'SHA-512' };
    }
  }
  throw new Error(`unsupported CA key type ${keyType ?? 'unknown'}${namedCurve ? ` (${namedCurve})` : ''}`);
}

/**
 * 128 random bits as a positive, minimally encoded DER INTEGER: Go rejects serials with a
 * redundant leading zero byte, and negative ones.
 */
function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x01;
  return bytes.toString('hex');
}

function validity(at: Date, years: number): { notBefore: Date; notAfter: Date } {
  const notBefore = new Date(at.getTime() - BACKDATE_MS);
  const notAfter = new Date(at.getTime());
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  return { notBefore, notAfter };
}

function requireNonEmpty(value: string, what: string): void {
  if (value.trim() === '') throw new Error(`${what} must not be empty`);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
