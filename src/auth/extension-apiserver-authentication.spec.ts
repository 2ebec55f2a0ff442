import 'reflect-metadata';
import { createCertificateAuthority } from '../tls/certificates';
import { ConfigMapFormatError, requestHeaderSettingsFromConfigMap } from './extension-apiserver-authentication';

const now = () => new Date('2026-06-01T12:00:00Z');

describe('requestHeaderSettingsFromConfigMap', () => {
  it("reads kube-apiserver's JSON arrays and the CA bundle (kubeadm's values)", async () => {
    const [first, second] = await Promise.all([createCertificateAuthority('front-proxy-ca', now), createCertificateAuthority('front-proxy-ca-next', now)]);
    const settings = requestHeaderSettingsFromConfigMap({
      'client-ca-file': first.certPem,
      'requestheader-client-ca-file': first.certPem + second.certPem,
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
    expect(settings.clientCas.map((c) => c.subject)).toEqual(['CN=front-proxy-ca', 'CN=front-proxy-ca-next']);
    expect(settings).toMatchObject({
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['X-Remote-User'],
      uidHeaders: [],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
    });
  });

  it('believes no certificate when the cluster has no front proxy (no requestheader keys)', () => {
    expect(requestHeaderSettingsFromConfigMap({ 'client-ca-file': '' })).toEqual({
      clientCas: [],
      clientCaPem: '',
      allowedNames: [],
      usernameHeaders: [],
      uidHeaders: [],
      groupHeaders: [],
      extraHeaderPrefixes: [],
    });
  });

  it('refuses a list that is not a JSON array of strings, and a CA that holds no certificate', () => {
    expect(() => requestHeaderSettingsFromConfigMap({ 'requestheader-allowed-names': 'front-proxy-client' })).toThrow(ConfigMapFormatError);
    expect(() => requestHeaderSettingsFromConfigMap({ 'requestheader-group-headers': '[1]' })).toThrow('requestheader-group-headers: not a JSON array of strings');
    expect(() => requestHeaderSettingsFromConfigMap({ 'requestheader-client-ca-file': 'not a certificate' })).toThrow('data does not contain any valid RSA or ECDSA certificates');
  });
});
