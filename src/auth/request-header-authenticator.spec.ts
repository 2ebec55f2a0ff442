import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { X509Certificate, webcrypto } from 'node:crypto';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate, loadCertificateAuthority, type CertificateAuthority } from '../tls/certificates';
import { authenticateRequestHeaders, type FrontProxiedRequest } from './request-header-authenticator';
import { DEFAULT_REQUEST_HEADERS, type RequestHeaderSettings } from './request-header-settings';

const NOW = new Date('2026-06-01T12:00:00Z');
const now = () => NOW;

/** A CA that the front-proxy CA signed, as a cluster's PKI may have. */
async function intermediateOf(root: CertificateAuthority): Promise<CertificateAuthority> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create({
    subject: 'CN=front-proxy-intermediate',
    issuer: root.certificate.subjectName,
    publicKey: keys.publicKey,
    signingKey: root.signingKey,
    signingAlgorithm: root.signingAlgorithm,
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2027-01-01T00:00:00Z'),
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return loadCertificateAuthority({ certPem: certificate.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') });
}

describe('authenticateRequestHeaders', () => {
  let frontProxyCa: CertificateAuthority;
  let otherCa: CertificateAuthority;
  let proxy: X509Certificate;
  let settings: RequestHeaderSettings;

  beforeAll(async () => {
    frontProxyCa = await createCertificateAuthority('front-proxy-ca', now);
    otherCa = await createCertificateAuthority('svctrail-ca', now);
    proxy = new X509Certificate((await issueClientCertificate(frontProxyCa, { user: 'front-proxy-client', groups: [] }, now)).certPem);
    settings = { clientCas: [new X509Certificate(frontProxyCa.certPem)], clientCaPem: frontProxyCa.certPem, allowedNames: ['front-proxy-client'], ...DEFAULT_REQUEST_HEADERS };
  });

  const request = (rawHeaders: string[], leaf = proxy, intermediates: X509Certificate[] = []): FrontProxiedRequest => ({ rawHeaders, peer: { leaf, intermediates } });

  it("reads the user, each X-Remote-Group line as one group (a comma is part of a group's name), and the extras lowercased and unescaped", () => {
    const outcome = authenticateRequestHeaders(
      settings,
      request([
        'X-Remote-User',
        'alice',
        'X-Remote-Group',
        'devs, inc',
        'x-remote-group',
        'system:masters',
        'X-Remote-Group',
        '',
        'X-Remote-Extra-Acme.com%2FProject',
        'a',
        'X-Remote-Extra-acme.com%2fproject',
        'b',
        'X-Remote-Extra-Scopes',
        'view',
        'X-Remote-Uid',
        'not-trusted',
      ]),
      NOW,
    );
    expect(outcome).toEqual({ user: { name: 'alice', groups: ['devs, inc', 'system:masters'], extra: { 'acme.com/project': ['a', 'b'], scopes: ['view'] } } });
  });

  it('trusts X-Remote-Uid only when a uid header is configured', () => {
    const outcome = authenticateRequestHeaders({ ...settings, uidHeaders: ['X-Remote-Uid'] }, request(['X-Remote-User', 'alice', 'X-Remote-Uid', '42']), NOW);
    expect(outcome).toEqual({ user: { name: 'alice', uid: '42', groups: [] } });
  });

  it('takes the first username header, in the configured order, that has a value', () => {
    const outcome = authenticateRequestHeaders({ ...settings, usernameHeaders: ['X-User', 'X-Remote-User'] }, request(['X-Remote-User', 'bob', 'X-User', '']), NOW);
    expect(outcome).toEqual({ user: { name: 'bob', groups: [] } });
  });

  it('keeps a malformed %-escape in an extra key as sent', () => {
    expect(authenticateRequestHeaders(settings, request(['X-Remote-User', 'a', 'X-Remote-Extra-50%zz', 'v']), NOW)).toEqual({ user: { name: 'a', groups: [], extra: { '50%zz': ['v'] } } });
  });

  it('has nothing to say without a certificate, without a username header, or without a request-header CA', () => {
    expect(authenticateRequestHeaders(settings, { rawHeaders: ['X-Remote-User', 'alice'] }, NOW)).toBeUndefined();
    expect(authenticateRequestHeaders(settings, request(['X-Remote-Group', 'devs']), NOW)).toBeUndefined();
    expect(authenticateRequestHeaders({ ...settings, clientCas: [], clientCaPem: '' }, request(['X-Remote-User', 'alice']), NOW)).toBeUndefined();
  });

  it('refuses a certificate from another CA, an allowed name not matched, and a certificate without the clientAuth usage', async () => {
    const stranger = new X509Certificate((await issueClientCertificate(otherCa, { user: 'front-proxy-client', groups: [] }, now)).certPem);
    expect(authenticateRequestHeaders(settings, request(['X-Remote-User', 'alice'], stranger), NOW)).toEqual({ problem: 'x509: certificate signed by unknown authority' });
    const wrongName = new X509Certificate((await issueClientCertificate(frontProxyCa, { user: 'mallory', groups: [] }, now)).certPem);
    expect(authenticateRequestHeaders(settings, request(['X-Remote-User', 'alice'], wrongName), NOW)).toEqual({ problem: 'x509: subject with cn=mallory is not in the allowed list' });
    const serving = new X509Certificate((await issueServingCertificate(frontProxyCa, {}, now)).certPem);
    expect(authenticateRequestHeaders({ ...settings, allowedNames: [] }, request(['X-Remote-User', 'alice'], serving), NOW)).toEqual({
      problem: 'x509: certificate specifies an incompatible key usage',
    });
  });

  it('allows any name the CA signed when the allowed list is empty', async () => {
    const anyName = new X509Certificate((await issueClientCertificate(frontProxyCa, { user: 'whoever', groups: [] }, now)).certPem);
    expect(authenticateRequestHeaders({ ...settings, allowedNames: [] }, request(['X-Remote-User', 'alice'], anyName), NOW)).toEqual({ user: { name: 'alice', groups: [] } });
  });

  it('refuses an expired certificate, and one not valid yet', () => {
    expect(authenticateRequestHeaders(settings, request(['X-Remote-User', 'alice']), new Date('2030-01-01T00:00:00Z'))).toEqual({
      problem: expect.stringContaining('x509: certificate has expired or is not yet valid'),
    });
    expect(authenticateRequestHeaders(settings, request(['X-Remote-User', 'alice']), new Date('2026-01-01T00:00:00Z'))).toEqual({
      problem: expect.stringContaining('x509: certificate has expired or is not yet valid'),
    });
  });

  it('follows the intermediates the client sent to the root, and no further without them', async () => {
    const intermediate = await intermediateOf(frontProxyCa);
    const leaf = new X509Certificate((await issueClientCertificate(intermediate, { user: 'front-proxy-client', groups: [] }, now)).certPem);
    expect(authenticateRequestHeaders(settings, request(['X-Remote-User', 'alice'], leaf, [new X509Certificate(intermediate.certPem)]), NOW)).toEqual({ user: { name: 'alice', groups: [] } });
    expect(authenticateRequestHeaders(settings, request(['X-Remote-User', 'alice'], leaf), NOW)).toEqual({ problem: 'x509: certificate signed by unknown authority' });
  });

  it('believes a certificate from either CA of a bundle during a rotation', async () => {
    const next = await createCertificateAuthority('front-proxy-ca-2', now);
    const rotated = { ...settings, clientCas: [new X509Certificate(frontProxyCa.certPem), new X509Certificate(next.certPem)] };
    const fromNext = new X509Certificate((await issueClientCertificate(next, { user: 'front-proxy-client', groups: [] }, now)).certPem);
    expect(authenticateRequestHeaders(rotated, request(['X-Remote-User', 'alice'], fromNext), NOW)).toEqual({ user: { name: 'alice', groups: [] } });
    expect(authenticateRequestHeaders(rotated, request(['X-Remote-User', 'alice']), NOW)).toEqual({ user: { name: 'alice', groups: [] } });
  });
});
