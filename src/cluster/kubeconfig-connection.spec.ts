import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ClusterConfigError } from './cluster-config-error';
import { loadKubeconfigConnection } from './kubeconfig-connection';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('loadKubeconfigConnection', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-kubeconfig-'));
    mkdirSync(join(dir, 'certs'));
    for (const name of ['certs/ca.crt', 'certs/me.crt', 'certs/me.key', 'token']) writeFileSync(join(dir, name), name);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (config: object, name = 'config', asJson = false) => {
    const path = join(dir, name);
    writeFileSync(path, asJson ? JSON.stringify(config) : stringify(config));
    return path;
  };
  const config = (user: object, cluster: object = { server: 'https://203.0.113.1:6443/', 'certificate-authority-data': b64('CA PEM') }) => ({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'prod',
    contexts: [
      { name: 'prod', context: { cluster: 'c1', user: 'u1' } },
      { name: 'staging', context: { cluster: 'c2', user: 'u2', namespace: 'team-a' } },
      { name: 'anonymous', context: { cluster: 'c2' } },
    ],
    clusters: [
      { name: 'c1', cluster },
      { name: 'c2', cluster: { server: 'https://198.51.100.1/prefix/', 'certificate-authority': 'certs/ca.crt', 'tls-server-name': 'api.internal' } },
    ],
    users: [
      { name: 'u1', user },
      { name: 'u2', user: { 'client-certificate': 'certs/me.crt', 'client-key': join(dir, 'certs/me.key') } },
    ],
  });
  const userOf = (user: object) => loadKubeconfigConnection(write(config(user))).user;

  it('given the current context, it resolves the server (without a trailing slash), the inline CA and a bearer token', () => {
    const path = write(config({ token: 'abc' }));
    expect(loadKubeconfigConnection(path)).toEqual({
      kubeconfig: path,
      context: 'prod',
      namespace: '',
      server: 'https://203.0.113.1:6443',
      certificateAuthority: { data: 'CA PEM' },
      insecureSkipTlsVerify: false,
      user: { token: 'abc' },
    });
  });

  it('reads the same kubeconfig written as JSON', () => {
    expect(loadKubeconfigConnection(write(config({ token: 'abc' }), 'config.json', true))).toMatchObject({ context: 'prod', user: { token: 'abc' } });
  });

  it('given a context name, it takes that context and its namespace; files are resolved relative to the kubeconfig folder, absolute ones kept', () => {
    expect(loadKubeconfigConnection(write(config({ token: 'abc' })), 'staging')).toEqual({
      kubeconfig: join(dir, 'config'),
      context: 'staging',
      namespace: 'team-a',
      server: 'https://198.51.100.1/prefix',
      certificateAuthority: { file: join(dir, 'certs/ca.crt') },
      insecureSkipTlsVerify: false,
      tlsServerName: 'api.internal',
      user: { clientCertificate: { file: join(dir, 'certs/me.crt') }, clientKey: { file: join(dir, 'certs/me.key') } },
    });
  });

  it('takes a context without a user as anonymous, as kubectl does', () => {
    expect(loadKubeconfigConnection(write(config({})), 'anonymous').user).toEqual({});
  });

  it('reads inline client certificates, preferring *-data to a file as clientcmd does', () => {
    expect(userOf({ 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') })).toEqual({ clientCertificate: { data: 'CERT' }, clientKey: { data: 'KEY' } });
    expect(userOf({ 'client-certificate-data': b64('CERT'), 'client-certificate': 'certs/me.crt', 'client-key': 'certs/me.key' })).toEqual({
      clientCertificate: { data: 'CERT' },
      clientKey: { file: join(dir, 'certs/me.key') },
    });
  });

  it('reads token files (kept with an inline token, which is the fallback) and basic auth', () => {
    expect(userOf({ tokenFile: 'token' })).toEqual({ tokenFile: join(dir, 'token') });
    expect(userOf({ token: 'inline', tokenFile: 'token' })).toEqual({ token: 'inline', tokenFile: join(dir, 'token') });
    expect(userOf({ username: 'u', password: 'p' })).toEqual({ username: 'u', password: 'p' });
  });

  it('reads the insecure flag and the exec extension of the cluster', () => {
    const connection = loadKubeconfigConnection(
      write(
        config(
          { token: 't' },
          {
            server: 'https://x',
            'insecure-skip-tls-verify': true,
            extensions: [
              { name: 'other', extension: {} },
              { name: 'client.authentication.k8s.io/exec', extension: { audience: 'svctrail' } },
            ],
          },
        ),
      ),
    );
    expect(connection).toMatchObject({ insecureSkipTlsVerify: true, execClusterConfig: { audience: 'svctrail' } });
    expect(connection.certificateAuthority).toBeUndefined();
  });

  it('reads exec plugins of v1 and v1beta1, the command relative to the kubeconfig folder when it has a slash', () => {
    const exec = {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: './bin/creds',
      args: ['get', 42],
      env: [{ name: 'REGION', value: 'eu' }],
      provideClusterInfo: true,
      interactiveMode: 'Never',
      installHint: 'install creds',
    };
    expect(userOf({ exec }).exec).toEqual({
      apiVersion: exec.apiVersion,
      command: join(dir, 'bin/creds'),
      args: ['get', '42'],
      env: [{ name: 'REGION', value: 'eu' }],
      interactiveMode: 'Never',
      provideClusterInfo: true,
      installHint: 'install creds',
    });
    // A bare command name is looked up on PATH; v1beta1 defaults interactiveMode to IfAvailable.
    expect(userOf({ exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'aws', args: ['eks', 'get-token'] } }).exec).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      command: 'aws',
      args: ['eks', 'get-token'],
      env: [],
      interactiveMode: 'IfAvailable',
      provideClusterInfo: false,
    });
    expect(userOf({ exec: { ...exec, command: '/usr/local/bin/creds' } }).exec?.command).toBe('/usr/local/bin/creds');
  });

  const v1Exec = { apiVersion: 'client.authentication.k8s.io/v1', command: 'x', interactiveMode: 'Never' };
  it.each<[string, (path: string) => unknown, RegExp]>([
    ['a context it does not have', (p) => loadKubeconfigConnection(p, 'nope'), /has no context "nope"/],
    ['no current-context and no context name', () => loadKubeconfigConnection(write({ ...config({}), 'current-context': '' }, 'other')), /no current-context/],
    ['a context whose cluster is missing', () => loadKubeconfigConnection(write({ ...config({}), clusters: [] }, 'other'), 'prod'), /context "prod" names cluster "c1", which it does not define/],
    ['a context whose user is missing', () => loadKubeconfigConnection(write({ ...config({}), users: [] }, 'other'), 'prod'), /context "prod" names user "u1", which it does not define/],
    ['a cluster without a server', () => loadKubeconfigConnection(write(config({}, { 'certificate-authority-data': b64('x') }), 'other')), /cluster "c1" has no server/],
    ['a server that is not a URL', () => loadKubeconfigConnection(write(config({}, { server: 'not a url' }), 'other')), /not a URL: not a url/],
    ['a proxy-url', () => loadKubeconfigConnection(write(config({}, { server: 'https://x', 'proxy-url': 'http://proxy:3128' }), 'other')), /proxy-url/],
    [
      'a CA together with insecure-skip-tls-verify',
      () => loadKubeconfigConnection(write(config({}, { server: 'https://x', 'certificate-authority-data': b64('x'), 'insecure-skip-tls-verify': true }), 'other')),
      /both a certificate authority and insecure-skip-tls-verify/,
    ],
    [
      'a CA file that is not there',
      () => loadKubeconfigConnection(write(config({}, { server: 'https://x', 'certificate-authority': 'nope.crt' }), 'other')),
      /certificate-authority file .*nope\.crt cannot be read/,
    ],
    ['a token file that is not there', () => loadKubeconfigConnection(write(config({ tokenFile: 'missing-token' }), 'other')), /tokenFile file .*missing-token cannot be read/],
    ['a certificate without its key', () => loadKubeconfigConnection(write(config({ 'client-certificate-data': b64('CERT') }), 'other')), /user "u1" has a client certificate without its key/],
    ['a token together with basic auth', () => loadKubeconfigConnection(write(config({ token: 't', username: 'u', password: 'p' }), 'other')), /both a token and a username\/password/],
    ['an auth-provider', () => loadKubeconfigConnection(write(config({ 'auth-provider': { name: 'oidc' } }), 'other')), /auth-provider, which svctrail does not support/],
    ['impersonation', () => loadKubeconfigConnection(write(config({ token: 't', as: 'admin' }), 'other')), /uses as,/],
    ['an exec plugin of an unknown apiVersion', () => loadKubeconfigConnection(write(config({ exec: { ...v1Exec, apiVersion: 'client.authentication.k8s.io/v1alpha1' } }), 'other')), /v1alpha1/],
    ['an exec plugin without a command', () => loadKubeconfigConnection(write(config({ exec: { ...v1Exec, command: '' } }), 'other')), /without a command/],
    ['a v1 exec plugin without interactiveMode', () => loadKubeconfigConnection(write(config({ exec: { ...v1Exec, interactiveMode: undefined } }), 'other')), /interactiveMode must be specified/],
    ['an exec plugin that wants a terminal', () => loadKubeconfigConnection(write(config({ exec: { ...v1Exec, interactiveMode: 'Always' } }), 'other')), /interactiveMode Always/],
    ['an exec plugin env entry without a name', () => loadKubeconfigConnection(write(config({ exec: { ...v1Exec, env: [{ value: 'v' }] } }), 'other')), /env entry has no name/],
    ['a file that is not there', () => loadKubeconfigConnection(join(dir, 'missing')), /cannot read the kubeconfig .*missing/],
    ['a file that is not YAML', () => loadKubeconfigConnection(join(dir, 'not-yaml')), /is not YAML or JSON/],
    ['a YAML file that is not a mapping', () => loadKubeconfigConnection(join(dir, 'a-list')), /is not a kubeconfig/],
  ])('refuses %s with a message naming it and the file', (_what, load, message) => {
    writeFileSync(join(dir, 'not-yaml'), 'a: [b\n');
    writeFileSync(join(dir, 'a-list'), '- a\n- b\n');
    const path = write(config({ token: 'abc' }));
    let error: unknown;
    try {
      load(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ClusterConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(dir);
  });
});
