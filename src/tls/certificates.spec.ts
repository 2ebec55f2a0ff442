import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { X509Certificate, createPrivateKey, webcrypto } from 'node:crypto';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate, loadCertificateAuthority, type CertificateAuthority } from './certificates';

const NOW = new Date('2025-03-01T12:00:00Z');
const now = () => NOW;
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

describe('certificates', () => {
  let ca: CertificateAuthority;
  beforeAll(async () => {
    ca = await createCertificateAuthority('svctrail-ca', now);
  });

  it('creates a self-signed CA valid for 10 years from the injected clock (backdated 5 minutes)', () => {
    const cert = new X509Certificate(ca.certPem);
    expect(cert.subject).toBe('CN=svctrail-ca');
    expect(cert.ca).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(new Date(cert.validFrom)).toEqual(new Date('2025-03-01T11:55:00Z'));
    expect(new Date(cert.validTo)).toEqual(new Date('2035-03-01T12:00:00Z'));
    expect(ca.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(createPrivateKey(ca.keyPem).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('issues a serving certificate with the loopback SANs plus extras and serverAuth', async () => {
    const { certPem, keyPem } = await issueServingCertificate(ca, { dnsNames: ['svc.example'], ipAddresses: ['10.0.0.5'] }, now);
    const cert = new X509Certificate(certPem);
    expect(cert.subjectAltName).toBe('DNS:localhost, DNS:svc.example, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:10.0.0.5');
    expect(cert.keyUsage).toEqual([SERVER_AUTH]);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(new Date(cert.validTo)).toEqual(new Date('2026-03-01T12:00:00Z'));
  });

  it('rejects a malformed IP address', async () => {
    await expect(issueServingCertificate(ca, { ipAddresses: ['localhost'] }, now)).rejects.toThrow('not an IP address');
  });

  it('issues a client certificate with CN=user and one O per group, in order', async () => {
    const { certPem, keyPem } = await issueClientCertificate(ca, { user: 'alice', groups: ['system:masters', 'devs, inc'] }, now);
    const cert = new X509Certificate(certPem);
    expect(cert.subject.split('\n')).toEqual(['O=system:masters', 'O=devs\\, inc', 'CN=alice']);
    expect(cert.keyUsage).toEqual([CLIENT_AUTH]);
    expect(cert.subjectAltName).toBeUndefined();
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
  });

  it('refuses an empty user name', async () => {
    await expect(issueClientCertificate(ca, { user: ' ', groups: [] }, now)).rejects.toThrow('user name must not be empty');
  });

  it('never lets a leaf outlive its CA', async () => {
    const late = () => new Date('2034-12-01T00:00:00Z');
    const cert = new X509Certificate((await issueClientCertificate(ca, { user: 'a', groups: [] }, late)).certPem);
    expect(new Date(cert.validTo)).toEqual(new Date('2035-03-01T12:00:00Z'));
  });

  it('gives every certificate a distinct positive serial', async () => {
    const serials = await Promise.all([1, 2, 3].map(async () => new X509Certificate((await issueClientCertificate(ca, { user: 'a', groups: [] }, now)).certPem).serialNumber));
    expect(new Set(serials).size).toBe(3);
    for (const serial of serials) expect(parseInt(serial.slice(0, 2), 16)).toBeGreaterThan(0);
    for (const serial of serials) expect(parseInt(serial.slice(0, 2), 16)).toBeLessThan(0x80);
  });

  it('loads a CA back from PEM and signs with it', async () => {
    const loaded = await loadCertificateAuthority({ certPem: ca.certPem, keyPem: ca.keyPem });
    const cert = new X509Certificate((await issueClientCertificate(loaded, { user: 'bob', groups: [] }, now)).certPem);
    expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(cert.issuer).toBe('CN=svctrail-ca');
  });

  it('refuses a key that does not belong to the CA certificate', async () => {
    const other = await createCertificateAuthority('other', now);
    await expect(loadCertificateAuthority({ certPem: ca.certPem, keyPem: other.keyPem })).rejects.toThrow('does not match');
  });

  it('refuses a leaf certificate as a CA', async () => {
    const leaf = await issueClientCertificate(ca, { user: 'a', groups: [] }, now);
    await expect(loadCertificateAuthority(leaf)).rejects.toThrow('is not a CA');
  });

  it('loads an RSA CA (PKCS#1 key) and signs an ECDSA leaf with it', async () => {
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
    const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
    const rsaCa = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=rsa-ca',
      keys,
      signingAlgorithm: algorithm,
      notBefore: NOW,
      notAfter: new Date('2030-01-01T00:00:00Z'),
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
    });
    const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
    const pkcs1Pem = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: 'pkcs1' }).toString();
    const loaded = await loadCertificateAuthority({ certPem: rsaCa.toString('pem'), keyPem: pkcs1Pem });
    const leaf = new X509Certificate((await issueServingCertificate(loaded, {}, now)).certPem);
    expect(leaf.verify(new X509Certificate(rsaCa.toString('pem')).publicKey)).toBe(true);
  });
});
