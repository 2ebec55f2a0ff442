// Checks that a CA's certificate may sign and that its key belongs to it, with Node's own X.509
// parser: a server whose certificates already exist needs nothing more at start-up, so the
// certificate-issuing library (certificates.ts) is loaded only when something is issued.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';

export interface PemCredentials {
  certPem: string;
  keyPem: string;
}

/** The CA's private key, once the pair checks out. */
export function checkCertificateAuthorityPair(pems: PemCredentials): KeyObject {
  const certificate = new X509Certificate(pems.certPem);
  const subject = certificate.subject.replace(/\n/g, ', ');
  if (!certificate.ca) throw new Error(`certificate "${subject}" is not a CA (basicConstraints CA:FALSE or missing)`);
  const key = createPrivateKey(pems.keyPem);
  if (!certificate.checkPrivateKey(key)) throw new Error(`the CA key does not match the CA certificate "${subject}"`);
  return key;
}
