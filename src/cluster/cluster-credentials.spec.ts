import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecPluginError } from './exec-plugin-error';
import { ClusterConfigError } from './cluster-config-error';
import { parseExecCredential, ClusterCredentials } from './cluster-credentials';
import type { ExecPlugin, ClusterConnection, ClusterUser } from './kubeconfig-connection';

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

describe('ClusterCredentials', () => {
  let dir: string;
  let plugin: string;
  let runLog: string;

  // A plugin that logs what it was given (KUBERNETES_EXEC_INFO, one env var, stdin) and prints
  // the file named by RESPONSE, or fails as EXIT_CODE says.
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-credentials-'));
    plugin = join(dir, 'plugin.js');
    runLog = join(dir, 'runs.jsonl');
    writeFileSync(
      plugin,
      `#!${process.execPath}
const fs = require('fs');
let stdin = '';
try { stdin = fs.readFileSync(0, 'utf8'); } catch (e) { stdin = 'error ' + e.code; }
fs.appendFileSync(${JSON.stringify(runLog)}, JSON.stringify({ info: JSON.parse(process.env.KUBERNETES_EXEC_INFO), region: process.env.REGION, path: Boolean(process.env.PATH), args: process.argv.slice(2), stdin }) + '\\n');
if (process.env.SLEEP_MS) { setTimeout(() => {}, Number(process.env.SLEEP_MS)); return; }
if (process.env.EXIT_CODE) { process.stderr.write('\\n  login failed: no session\\nsecond line\\n'); process.exit(Number(process.env.EXIT_CODE)); }
process.stdout.write(fs.readFileSync(process.env.RESPONSE, 'utf8'));
`,
    );
    chmodSync(plugin, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const runs = (): { info: unknown; region?: string; path: boolean; args: string[]; stdin: string }[] => {
    try {
      return readFileSync(runLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as never);
    } catch {
      return [];
    }
  };
  const respond = (status: object, apiVersion = V1) => {
    const path = join(dir, `response-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify({ apiVersion, kind: 'ExecCredential', status }));
    return path;
  };
  const exec = (response: string, more: Partial<ExecPlugin> & { vars?: Record<string, string> } = {}): ExecPlugin => {
    const { vars, ...rest } = more;
    return {
      command: plugin,
      args: ['get-token', '--cluster', 'prod'],
      env: Object.entries({ REGION: 'eu-1', RESPONSE: response, ...vars }).map(([name, value]) => ({ name, value })),
      apiVersion: V1,
      interactiveMode: 'Never',
      provideClusterInfo: false,
      ...rest,
    };
  };
  const connection = (user: ClusterUser, more: Partial<ClusterConnection> = {}): ClusterConnection => ({
    kubeconfig: join(dir, 'config'),
    context: 'c',
    namespace: '',
    server: 'https://203.0.113.1:6443',
    insecureSkipTlsVerify: false,
    user,
    ...more,
  });

  describe('files and inline values', () => {
    it('should give an inline token, CA and basic auth as they are', async () => {
      const sut = new ClusterCredentials(connection({ token: 'abc' }, { certificateAuthority: { data: 'CA' } }));
      expect(await sut.current()).toEqual({ token: 'abc', caPem: 'CA' });
      const basic = new ClusterCredentials(connection({ username: 'u', password: 'p' }));
      expect(await basic.current()).toEqual({ basic: { username: 'u', password: 'p' } });
    });

    it('should keep what it read until invalidated, then read the token, certificate, key and CA files again', async () => {
      const files = { token: join(dir, 'token'), cert: join(dir, 'me.crt'), key: join(dir, 'me.key'), ca: join(dir, 'ca.crt') };
      const writeAll = (suffix: string) => {
        writeFileSync(files.token, `token-${suffix}\n`);
        writeFileSync(files.cert, `CERT ${suffix}`);
        writeFileSync(files.key, `KEY ${suffix}`);
        writeFileSync(files.ca, `CA ${suffix}`);
      };
      writeAll('1');
      const sut = new ClusterCredentials(connection({ tokenFile: files.token, clientCertificate: { file: files.cert }, clientKey: { file: files.key } }, { certificateAuthority: { file: files.ca } }));
      const first = await sut.current();
      expect(first).toEqual({ token: 'token-1', certPem: 'CERT 1', keyPem: 'KEY 1', caPem: 'CA 1' });
      writeAll('2');
      expect(await sut.current()).toBe(first);
      sut.invalidate();
      expect(await sut.current()).toEqual({ token: 'token-2', certPem: 'CERT 2', keyPem: 'KEY 2', caPem: 'CA 2' });
    });

    it("should prefer the token file to the inline token, and use the inline one only while the file never gave one (client-go's order)", async () => {
      const tokenFile = join(dir, 'token');
      const sut = new ClusterCredentials(connection({ token: 'inline', tokenFile }));
      expect((await sut.current()).token).toBe('inline');
      writeFileSync(tokenFile, 'from-file');
      sut.invalidate();
      expect((await sut.current()).token).toBe('from-file');
      // Gone again: the last token the file gave, not the inline one (cachingTokenSource keeps it).
      rmSync(tokenFile);
      sut.invalidate();
      expect((await sut.current()).token).toBe('from-file');
    });

    it('should read the token file again once its token is 50 s old (1 min less 10 s leeway), keeping the CA and certificate reads alike', async () => {
      let now = 1_000_000;
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, 'first\n');
      const sut = new ClusterCredentials(connection({ tokenFile }), { now: () => now });
      const first = await sut.current();
      expect(first.token).toBe('first');
      writeFileSync(tokenFile, 'rotated\n');
      now += 50_000;
      expect(await sut.current()).toBe(first);
      now += 1;
      expect((await sut.current()).token).toBe('rotated');
    });

    it.each([
      ['emptied', (path: string) => writeFileSync(path, '  \n')],
      ['removed', (path: string) => rmSync(path)],
    ])('should keep the last token when the file is %s at a re-read, and take the next one the file gives', async (_case, spoil) => {
      let now = 0;
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, 'good');
      const sut = new ClusterCredentials(connection({ tokenFile }), { now: () => now, tokenFileMaxAgeMs: 1_000 });
      expect((await sut.current()).token).toBe('good');
      spoil(tokenFile);
      now += 1_001;
      expect((await sut.current()).token).toBe('good');
      writeFileSync(tokenFile, 'next');
      now += 1_001;
      expect((await sut.current()).token).toBe('next');
    });

    it('should say which file it could not read', async () => {
      const sut = new ClusterCredentials(connection({ tokenFile: join(dir, 'gone') }));
      await expect(sut.current()).rejects.toThrow(ClusterConfigError);
      await expect(sut.current()).rejects.toThrow(`cannot read the tokenFile ${join(dir, 'gone')}`);
    });
  });

  describe('exec plugins', () => {
    it('should run the plugin without a shell or stdin, with its args, the kubeconfig env added and KUBERNETES_EXEC_INFO set', async () => {
      const sut = new ClusterCredentials(connection({ exec: exec(respond({ token: 'tok-1' })) }));
      expect(await sut.current()).toEqual({ token: 'tok-1' });
      expect(runs()).toEqual([{ info: { apiVersion: V1, kind: 'ExecCredential', spec: { interactive: false } }, region: 'eu-1', path: true, args: ['get-token', '--cluster', 'prod'], stdin: '' }]);
    });

    it('should tell a plugin that asks for it about the cluster (server, names, CA read from its file, the exec extension)', async () => {
      const ca = join(dir, 'ca.crt');
      writeFileSync(ca, 'CA PEM');
      const sut = new ClusterCredentials(
        connection(
          { exec: exec(respond({ token: 't' }, V1BETA1), { apiVersion: V1BETA1, interactiveMode: 'IfAvailable', provideClusterInfo: true }) },
          { certificateAuthority: { file: ca }, tlsServerName: 'api.internal', execClusterConfig: { audience: 'x' } },
        ),
      );
      await sut.current();
      expect(runs()[0].info).toEqual({
        apiVersion: V1BETA1,
        kind: 'ExecCredential',
        spec: {
          interactive: false,
          cluster: { server: 'https://203.0.113.1:6443', 'tls-server-name': 'api.internal', 'certificate-authority-data': Buffer.from('CA PEM').toString('base64'), config: { audience: 'x' } },
        },
      });
    });

    it('should take a client certificate and key from the plugin', async () => {
      const sut = new ClusterCredentials(connection({ exec: exec(respond({ clientCertificateData: 'CERT', clientKeyData: 'KEY' })) }));
      expect(await sut.current()).toEqual({ certPem: 'CERT', keyPem: 'KEY' });
    });

    it('should keep what the plugin gave until its expirationTimestamp has passed, then run it again', async () => {
      let now = Date.parse('2030-01-01T00:00:00Z');
      const sut = new ClusterCredentials(connection({ exec: exec(respond({ token: 't', expirationTimestamp: '2030-01-01T00:05:00Z' })) }), { now: () => now });
      await sut.current();
      now += 5 * 60_000;
      await sut.current();
      expect(runs()).toHaveLength(1);
      now += 1;
      await sut.current();
      expect(runs()).toHaveLength(2);
    });

    it('should keep a token without expiry until invalidated, and share one run among concurrent callers', async () => {
      const sut = new ClusterCredentials(connection({ exec: exec(respond({ token: 't' })) }));
      const [a, b, c] = await Promise.all([sut.current(), sut.current(), sut.current()]);
      expect(a).toBe(b);
      expect(b).toBe(c);
      await sut.current();
      expect(runs()).toHaveLength(1);
      sut.invalidate();
      const d = await sut.current();
      expect(d).not.toBe(a);
      expect(runs()).toHaveLength(2);
    });

    it('should run no plugin when the kubeconfig gives a token itself, as client-go does', async () => {
      const sut = new ClusterCredentials(connection({ token: 'static', exec: exec(respond({ token: 'from-plugin' })) }));
      expect(await sut.current()).toEqual({ token: 'static' });
      expect(runs()).toHaveLength(0);
    });

    it('should name the plugin, its exit code and the first line of its stderr when it fails', async () => {
      const sut = new ClusterCredentials(connection({ exec: exec(respond({ token: 't' }), { vars: { EXIT_CODE: '3' } }) }));
      const error = await sut.current().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExecPluginError);
      expect(error).toMatchObject({ command: plugin, exitCode: 3, message: `the exec credential plugin ${plugin} failed (exit 3): login failed: no session` });
    });

    it('should say when the plugin cannot be found, with its install hint', async () => {
      const sut = new ClusterCredentials(connection({ exec: { ...exec(''), command: join(dir, 'missing-plugin'), installHint: 'brew install the-plugin' } }));
      await expect(sut.current()).rejects.toThrow(/missing-plugin cannot be run: no such file, or not found on PATH\nbrew install the-plugin/);
    });

    it('should kill a plugin that runs too long and say so', async () => {
      const sut = new ClusterCredentials(connection({ exec: exec('', { vars: { SLEEP_MS: '20000' } }) }), { pluginTimeoutMs: 300 });
      const started = Date.now();
      await expect(sut.current()).rejects.toThrow(/did not finish within 300 ms/);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    const writeTemp = (text: string) => {
      const path = join(dir, 'raw.txt');
      writeFileSync(path, text);
      return path;
    };
    it.each<[string, () => string, RegExp]>([
      ['output that is not JSON', () => writeTemp('Please log in'), /printed no usable ExecCredential: its output is not JSON: "Please log in"/],
      ['an answer of another apiVersion', () => respond({ token: 't' }, V1BETA1), /asks for client.authentication.k8s.io\/v1 and the plugin answered "client.authentication.k8s.io\/v1beta1"/],
      ['a certificate without its key', () => respond({ clientCertificateData: 'CERT' }), /only a client certificate or only a key/],
      ['an expirationTimestamp that is not RFC 3339', () => respond({ token: 't', expirationTimestamp: 'tomorrow' }), /not an RFC 3339 time: tomorrow/],
    ])('should refuse %s', async (_what, response, message) => {
      const sut = new ClusterCredentials(connection({ exec: exec(response()) }));
      await expect(sut.current()).rejects.toThrow(ExecPluginError);
      await expect(sut.current()).rejects.toThrow(message);
    });
  });
});

describe('parseExecCredential', () => {
  const V1 = 'client.authentication.k8s.io/v1';
  const print = (body: object) => JSON.stringify({ apiVersion: V1, kind: 'ExecCredential', ...body });

  it('should take the token, the certificate pair and the expiry, and ignore empty fields', () => {
    expect(parseExecCredential(print({ status: { token: 't', expirationTimestamp: '2030-01-01T00:00:00Z', clientCertificateData: '', clientKeyData: '' } }), V1)).toEqual({
      token: 't',
      expirationTimestamp: '2030-01-01T00:00:00Z',
    });
    expect(parseExecCredential(print({ spec: {}, status: { clientCertificateData: 'C', clientKeyData: 'K' } }), V1)).toEqual({ clientCertificateData: 'C', clientKeyData: 'K' });
  });

  it.each([
    ['no status', print({}), /no status/],
    ['an empty status', print({ status: {} }), /neither a token nor a client certificate/],
    ['a key without its certificate', print({ status: { clientKeyData: 'K' } }), /only a client certificate or only a key/],
    ['another kind', JSON.stringify({ apiVersion: V1, kind: 'Status' }), /not an ExecCredential/],
    ['null', 'null', /not an ExecCredential/],
  ])('should refuse %s', (_what, stdout, message) => {
    expect(() => parseExecCredential(stdout, V1)).toThrow(message);
  });
});
