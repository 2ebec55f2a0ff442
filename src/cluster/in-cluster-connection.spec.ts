import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority } from '../tls/certificates';
import { ClusterConfigError } from './cluster-config-error';
import { inClusterConnection, type InClusterEnvironment } from './in-cluster-connection';

describe('inClusterConnection (rest.InClusterConfig)', () => {
  let dir: string;
  let caPem: string;
  const environment = (more: Partial<InClusterEnvironment> = {}): InClusterEnvironment => ({ host: '10.96.0.1', port: '443', podNamespace: '', serviceAccountDir: dir, ...more });

  beforeAll(async () => {
    caPem = (await createCertificateAuthority('kubernetes', () => new Date())).certPem;
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-sa-'));
    writeFileSync(join(dir, 'token'), 'eyJhbGciOi.token\n');
    writeFileSync(join(dir, 'ca.crt'), caPem);
    writeFileSync(join(dir, 'namespace'), 'svctrail\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should name https://host:port, the token file to read (about every minute), the CA file and the namespace file', () => {
    expect(inClusterConnection(environment(), '--mirror')).toEqual({
      connection: {
        kubeconfig: 'in-cluster',
        context: 'in-cluster',
        namespace: 'svctrail',
        server: 'https://10.96.0.1:443',
        certificateAuthority: { file: join(dir, 'ca.crt') },
        insecureSkipTlsVerify: false,
        user: { tokenFile: join(dir, 'token') },
      },
      warnings: [],
    });
  });

  it('should bracket an IPv6 host, as net.JoinHostPort does', () => {
    expect(inClusterConnection(environment({ host: 'fd00:10:96::1' }), '--mirror').connection.server).toBe('https://[fd00:10:96::1]:443');
  });

  it('should take POD_NAMESPACE first, then the namespace file, then "default" (clientcmd inClusterClientConfig.Namespace)', () => {
    expect(inClusterConnection(environment({ podNamespace: 'from-env' }), '--mirror').connection.namespace).toBe('from-env');
    writeFileSync(join(dir, 'namespace'), '  \n');
    expect(inClusterConnection(environment(), '--mirror').connection.namespace).toBe('default');
    rmSync(join(dir, 'namespace'));
    expect(inClusterConnection(environment(), '--mirror').connection.namespace).toBe('default');
  });

  it.each([
    ['no KUBERNETES_SERVICE_HOST', { host: '' }],
    ['no KUBERNETES_SERVICE_PORT', { port: '' }],
  ])("should refuse to start with client-go's ErrNotInCluster text, naming the flag, given %s", (_case, more) => {
    const attempt = () => inClusterConnection(environment(more), '--authorization-kubeconfig');
    expect(attempt).toThrow(ClusterConfigError);
    expect(attempt).toThrow('--authorization-kubeconfig in-cluster: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  });

  it('should refuse to start without a readable, non-empty token, as a client-go client fails to be made', () => {
    writeFileSync(join(dir, 'token'), ' \n');
    expect(() => inClusterConnection(environment(), '--mirror')).toThrow(`--mirror in-cluster: read empty token from file "${join(dir, 'token')}"`);
    rmSync(join(dir, 'token'));
    expect(() => inClusterConnection(environment(), '--mirror')).toThrow(/^--mirror in-cluster: cannot read the service account token: ENOENT/);
  });

  it('should only warn about a CA it cannot use, and trust the system roots then (client-go logs and goes on)', () => {
    writeFileSync(join(dir, 'ca.crt'), 'not a certificate');
    const garbled = inClusterConnection(environment(), '--mirror');
    expect(garbled.connection.certificateAuthority).toBeUndefined();
    expect(garbled.warnings).toEqual([
      `--mirror in-cluster: expected to load root CA config from ${join(dir, 'ca.crt')}, but got err: data does not contain any valid RSA or ECDSA certificates; trusting the system's roots`,
    ]);
    rmSync(join(dir, 'ca.crt'));
    expect(inClusterConnection(environment(), '--mirror').warnings).toEqual([expect.stringMatching(/but got err: ENOENT: no such file or directory/)]);
  });
});
