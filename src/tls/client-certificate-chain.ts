// Go's x509 Certificate.Verify for a client certificate, as k8s.io/apiserver's x509 authenticators
// call it (KeyUsages: clientAuth): a chain from the presented leaf, through the intermediates the
// client sent, to one of the given roots, every certificate within its validity period and every
// issuer a CA, and the clientAuth usage allowed by each certificate of the chain that lists
// extended key usages. Node's TLS layer checks a chain against all the server's CAs at once; an
// authenticator must know which CA a chain reaches, so it verifies again against its own.
import { X509Certificate } from 'node:crypto';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';
// Go gives up on chains longer than this many intermediates too (maxChainSignatureChecks bounds it).
const MAX_INTERMEDIATES = 8;

/** Why the chain does not verify (Go's x509 error text), or undefined when it does. */
export function clientChainProblem(leaf: X509Certificate, intermediates: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date): string | undefined {
  if (!withinValidity(leaf, now)) return `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is outside ${leaf.validFrom} – ${leaf.validTo}`;
  let sawUsageProblem = false;
  for (const chain of chainsToRoots(leaf, intermediates, roots, now)) {
    if (chain.every(allowsClientAuth)) return undefined;
    sawUsageProblem = true;
  }
  return sawUsageProblem ? 'x509: certificate specifies an incompatible key usage' : 'x509: certificate signed by unknown authority';
}

/** Every chain leaf → … → root (the root last) whose signatures, CA flags and validity hold. */
function chainsToRoots(leaf: X509Certificate, intermediates: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date): X509Certificate[][] {
  // A root presented as the leaf is a chain of its own (Go: the leaf is in the roots pool).
  if (roots.some((root) => root.raw.equals(leaf.raw))) return [[leaf]];
  const chains: X509Certificate[][] = [];
  const extend = (chain: X509Certificate[]): void => {
    const last = chain[chain.length - 1];
    for (const root of roots) {
      if (issued(root, last, now)) chains.push([...chain, root]);
    }
    if (chain.length > MAX_INTERMEDIATES) return;
    for (const intermediate of intermediates) {
      if (chain.some((c) => c.raw.equals(intermediate.raw))) continue;
      if (issued(intermediate, last, now)) extend([...chain, intermediate]);
    }
  };
  extend([leaf]);
  return chains;
}

function issued(issuer: X509Certificate, subject: X509Certificate, now: Date): boolean {
  return issuer.ca && withinValidity(issuer, now) && subject.checkIssued(issuer) && subject.verify(issuer.publicKey);
}

function withinValidity(certificate: X509Certificate, now: Date): boolean {
  return new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo);
}

/** Go's checkChainForKeyUsage per certificate: no extended key usage listed allows any. */
function allowsClientAuth(certificate: X509Certificate): boolean {
  // Node names the extended key usage OIDs `keyUsage`; undefined when the extension is absent.
  const usages = certificate.keyUsage;
  return !usages || usages.length === 0 || usages.includes(CLIENT_AUTH) || usages.includes(ANY_USAGE);
}

/** The PEM certificates of a bundle (a CA file may hold several, as during a rotation). */
export function certificatesOfBundle(pem: string): X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((block) => new X509Certificate(block));
}
