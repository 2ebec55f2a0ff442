import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { MirrorConfigError } from './mirror-config-error';
import { loadSourceKubeconfig } from './source-kubeconfig';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('loadSourceKubeconfig', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'svctrail-kubeconfig-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (config: object, name = 'config') => {
    const path = join(dir, name);
    writeFileSync(path, stringify(config));
    return path;
  };
  const config = (user: object, cluster: object = { server: 'https://203.0.113.1:6443/', 'certificate-authority-data': b64('CA PEM') }) => ({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'prod',
    contexts: [
      { name: 'prod', context: { cluster: 'c1', user: 'u1' } },
      { name: 'staging', context: { cluster: 'c2', user: 'u2' } },
    ],
    clusters: [
      { name: 'c1', cluster },
      { name: 'c2', cluster: { server: 'https://198.51.100.1', 'certificate-authority': 'certs/ca.crt', 'insecure-skip-tls-verify': false, 'tls-server-name': 'api.internal' } },
    ],
    users: [
      { name: 'u1', user },
      { name: 'u2', user: { 'client-certificate': 'certs/me.crt', 'client-key': '/abs/me.key' } },
    ],
  });

  it('given the current context, it resolves the server (without a trailing slash), the inline CA and a bearer token', () => {
    const connection = loadSourceKubeconfig(write(config({ token: 'abc' })));
    expect(connection).toMatchObject({ context: 'prod', server: 'https://203.0.113.1:6443', certificateAuthority: { data: 'CA PEM' }, insecureSkipTlsVerify: false, user: { token: 'abc' } });
  });

  it('given --mirror-context, it takes that context; files are named relative to the kubeconfig folder, absolute ones as they are', () => {
    const connection = loadSourceKubeconfig(write(config({ token: 'abc' })), 'staging');
    expect(connection).toMatchObject({
      server: 'https://198.51.100.1',
      certificateAuthority: { file: join(dir, 'certs/ca.crt') },
      tlsServerName: 'api.internal',
      user: { clientCertificate: { file: join(dir, 'certs/me.crt') }, clientKey: { file: '/abs/me.key' } },
    });
  });

  it('reads inline client certificates, token files, basic auth and exec plugins (v1 and v1beta1)', () => {
    expect(loadSourceKubeconfig(write(config({ 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') }))).user).toEqual({ clientCertificate: { data: 'CERT' }, clientKey: { data: 'KEY' } });
    expect(loadSourceKubeconfig(write(config({ tokenFile: 'token' }))).user).toEqual({ tokenFile: join(dir, 'token') });
    expect(loadSourceKubeconfig(write(config({ username: 'u', password: 'p' }))).user).toEqual({ username: 'u', password: 'p' });
    const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: './bin/creds', args: ['get'], env: [{ name: 'REGION', value: 'eu' }], provideClusterInfo: true, interactiveMode: 'Never' };
    expect(loadSourceKubeconfig(write(config({ exec }))).user.exec).toEqual({ apiVersion: exec.apiVersion, command: join(dir, 'bin/creds'), args: ['get'], env: [{ name: 'REGION', value: 'eu' }], provideClusterInfo: true });
    // A bare command name is looked up on PATH, as kubectl does.
    expect(loadSourceKubeconfig(write(config({ exec: { ...exec, apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'aws' } }))).user.exec?.command).toBe('aws');
  });

  it.each([
    ['a context it does not have', (p: string) => loadSourceKubeconfig(p, 'nope'), /has no context "nope"/],
    ['no current-context and no --mirror-context', (_p: string) => loadSourceKubeconfig(write({ ...config({}), 'current-context': '' }, 'other')), /no current-context/],
    ['a context whose cluster is missing', (_p: string) => loadSourceKubeconfig(write({ ...config({}), clusters: [] }, 'other'), 'prod'), /names cluster "c1", which it does not define/],
    ['a context whose user is missing', (_p: string) => loadSourceKubeconfig(write({ ...config({}), users: [] }, 'other'), 'prod'), /names user "u1", which it does not define/],
    ['a certificate without its key', (_p: string) => loadSourceKubeconfig(write(config({ 'client-certificate-data': b64('CERT') }), 'other')), /without its key/],
    ['an exec plugin of an unknown apiVersion', (_p: string) => loadSourceKubeconfig(write(config({ exec: { command: 'x', apiVersion: 'client.authentication.k8s.io/v1alpha1' } }), 'other')), /v1alpha1/],
    ['a file that is not there', () => loadSourceKubeconfig(join(dir, 'missing')), /cannot read the kubeconfig/],
  ])('refuses %s with a message naming it', (_what, load, message) => {
    const path = write(config({ token: 'abc' }));
    expect(() => load(path)).toThrow(MirrorConfigError);
    expect(() => load(path)).toThrow(message);
  });
});
