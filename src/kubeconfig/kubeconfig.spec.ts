import { parse } from 'yaml';
import { renderKubeconfig } from './kubeconfig';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('renderKubeconfig', () => {
  it('renders a token kubeconfig with the defaults', () => {
    const text = renderKubeconfig({ server: 'https://127.0.0.1:6443', caPem: CA, user: { token: 'abc' }, userName: 'admin' });
    expect(parse(text)).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'svctrail', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64(CA) } }],
      users: [{ name: 'admin', user: { token: 'abc' } }],
      contexts: [{ name: 'admin@svctrail', context: { cluster: 'svctrail', user: 'admin' } }],
      'current-context': 'admin@svctrail',
      preferences: {},
    });
  });

  it('renders a client-certificate kubeconfig with custom names', () => {
    const cert = '-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n';
    const key = '-----BEGIN PRIVATE KEY-----\nY\n-----END PRIVATE KEY-----\n';
    const config = parse(
      renderKubeconfig({
        server: 'https://[::1]:8443',
        caPem: CA,
        user: { certPem: cert, keyPem: key },
        userName: 'alice',
        clusterName: 'lab',
        contextName: 'alice-lab',
      }),
    );
    expect(config.users).toEqual([{ name: 'alice', user: { 'client-certificate-data': b64(cert), 'client-key-data': b64(key) } }]);
    expect(config.clusters[0].name).toBe('lab');
    expect(config.contexts).toEqual([{ name: 'alice-lab', context: { cluster: 'lab', user: 'alice' } }]);
    expect(config['current-context']).toBe('alice-lab');
  });

  it('keeps long base64 values on one line', () => {
    const longCa = CA.repeat(40);
    const text = renderKubeconfig({ server: 'https://127.0.0.1:1', caPem: longCa, user: { token: 't' }, userName: 'u' });
    expect(text).toContain(`certificate-authority-data: ${b64(longCa)}\n`);
  });

  it('quotes values YAML would otherwise retype', () => {
    const config = parse(renderKubeconfig({ server: 'https://h:1', caPem: CA, user: { token: '12345' }, userName: 'true' }));
    expect(config.users[0]).toEqual({ name: 'true', user: { token: '12345' } });
  });
});
