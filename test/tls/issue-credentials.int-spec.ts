import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { authenticateRequest } from '../../src/auth/authenticator';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { readTokenFile } from '../../src/auth/token-file';
import { TokenIndex } from '../../src/auth/token-index';
import { ensureDataDir } from '../../src/tls/data-dir';

const now = () => new Date('2025-03-01T12:00:00Z');
const fromBase64 = (value: string) => Buffer.from(value, 'base64').toString('utf8');

describe('issueCredentials', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svctrail-issue-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('issues a client certificate signed by the data dir CA and writes users/<user>.kubeconfig', async () => {
    const data = await ensureDataDir({ dataDir, now });
    const issued = await issueCredentials({ dataDir, user: 'alice', groups: ['devs', 'ops'], now });
    expect(issued).toMatchObject({ method: 'certificate', user: 'alice', groups: ['devs', 'ops'], warnings: [] });
    expect(issued.kubeconfigPath).toBe(join(dataDir, 'users', 'alice.kubeconfig'));
    expect((await stat(issued.kubeconfigPath)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, 'users'))).mode & 0o777).toBe(0o700);

    const config = parse(await readFile(issued.kubeconfigPath, 'utf8'));
    expect(config['current-context']).toBe('alice@svctrail');
    expect(config.clusters[0].cluster.server).toBe('https://127.0.0.1:6443');
    expect(fromBase64(config.clusters[0].cluster['certificate-authority-data'])).toBe(data.caCertPem);
    const cert = new X509Certificate(fromBase64(config.users[0].user['client-certificate-data']));
    expect(cert.subject.split('\n')).toEqual(['O=devs', 'O=ops', 'CN=alice']);
    expect(cert.checkIssued(new X509Certificate(data.caCertPem))).toBe(true);
    expect(fromBase64(config.users[0].user['client-key-data'])).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    // tokens.csv is untouched in certificate mode.
    expect((await readTokenFile(join(dataDir, 'tokens.csv'))).records).toHaveLength(1);
  });

  it('bootstraps the data dir when it does not exist yet, and honours --out and --server', async () => {
    const out = join(dataDir, 'elsewhere', 'bob.yaml');
    const issued = await issueCredentials({ dataDir: join(dataDir, 'fresh'), user: 'bob', out, server: 'https://localhost:7443', now });
    expect(issued.kubeconfigPath).toBe(out);
    expect(parse(await readFile(out, 'utf8')).clusters[0].cluster.server).toBe('https://localhost:7443');
  });

  it('--token appends a token line and writes a token kubeconfig that authenticates', async () => {
    await ensureDataDir({ dataDir, now });
    const issued = await issueCredentials({ dataDir, user: 'carol', groups: ['devs'], method: 'token', now });
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.warnings).toEqual([expect.stringContaining('restart svctrail')]);

    const { records } = await readTokenFile(join(dataDir, 'tokens.csv'));
    expect(records.map((record) => record.user)).toEqual(['admin', 'carol']);
    expect(records[1]).toEqual({ token: issued.token, user: 'carol', uid: 'carol', groups: ['devs'] });

    const config = parse(await readFile(issued.kubeconfigPath, 'utf8'));
    expect(config.users[0]).toEqual({ name: 'carol', user: { token: issued.token } });
    const user = authenticateRequest({ authorizationHeader: `Bearer ${issued.token}`, peerAuthorized: false }, TokenIndex.fromRecords(records));
    expect(user).toEqual({ name: 'carol', uid: 'carol', groups: ['devs', 'system:authenticated'] });
  });

  it('warns about a server name the serving certificate does not cover, and about plain http', async () => {
    await ensureDataDir({ dataDir, now });
    const https = await issueCredentials({ dataDir, user: 'dave', server: 'https://10.9.8.7:6443', now });
    expect(https.warnings).toEqual([expect.stringContaining('no subjectAltName for https://10.9.8.7:6443')]);
    const http = await issueCredentials({ dataDir, user: 'dave', server: 'http://127.0.0.1:8080', now });
    expect(http.warnings).toContainEqual(expect.stringContaining('not https'));
  });

  it.each([
    [{ user: '' }, 'user name must not be empty'],
    [{ user: 'a\nb' }, 'control characters'],
    [{ user: 'a', groups: [''] }, 'group name must not be empty'],
    [{ user: 'a', groups: ['x,y'], method: 'token' as const }, 'must not contain ","'],
  ])('rejects %j', async (options, message) => {
    await expect(issueCredentials({ dataDir, now, ...options })).rejects.toThrow(message);
  });

  it('keeps path separators out of the file name', async () => {
    const issued = await issueCredentials({ dataDir, user: 'team/../../x', now });
    expect(issued.kubeconfigPath).toBe(join(dataDir, 'users', 'team_.._.._x.kubeconfig'));
  });
});
