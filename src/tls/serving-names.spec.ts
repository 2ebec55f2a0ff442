import { certificateCoversServerUrl, serverUrlHost } from './serving-names';
import { createCertificateAuthority, issueServingCertificate } from './certificates';

const now = () => new Date('2025-03-01T12:00:00Z');

describe('serverUrlHost', () => {
  it.each([
    ['https://127.0.0.1:6443', { dnsNames: [], ipAddresses: ['127.0.0.1'] }],
    ['https://[::1]:6443', { dnsNames: [], ipAddresses: ['::1'] }],
    ['https://svctrail.example.com', { dnsNames: ['svctrail.example.com'], ipAddresses: [] }],
  ])('%s', (url, expected) => {
    expect(serverUrlHost(url)).toEqual(expected);
  });
});

describe('certificateCoversServerUrl', () => {
  it('checks the URL host against the SANs only', async () => {
    const ca = await createCertificateAuthority('ca', now);
    const { certPem } = await issueServingCertificate(ca, { dnsNames: ['api.example'] }, now);
    expect(certificateCoversServerUrl(certPem, 'https://127.0.0.1:1')).toBe(true);
    expect(certificateCoversServerUrl(certPem, 'https://[::1]:1')).toBe(true);
    expect(certificateCoversServerUrl(certPem, 'https://localhost:1')).toBe(true);
    expect(certificateCoversServerUrl(certPem, 'https://api.example')).toBe(true);
    expect(certificateCoversServerUrl(certPem, 'https://10.1.1.1:6443')).toBe(false);
    // The subject CN is "svctrail", which Go ignores.
    expect(certificateCoversServerUrl(certPem, 'https://svctrail:6443')).toBe(false);
  });
});
