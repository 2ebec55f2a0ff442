import { request } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenIndex } from '../../src/auth/token-index';
import { createCertificateAuthority, issueClientCertificate, loadCertificateAuthority, type PemCredentials } from '../../src/tls/certificates';
import { ensureDataDir, type DataDirContents } from '../../src/tls/data-dir';
import { startAuthProbeServer, type AuthProbeServer } from './auth-probe-server';

const now = () => new Date();

interface Reply {
  status: number;
  body: string;
}

function get(url: string, options: { ca: string; client?: PemCredentials; token?: string; servername?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca: options.ca,
        ...(options.client ? { cert: options.client.certPem, key: options.client.keyPem } : {}),
        headers: options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {},
        // No pooling: each request must present its own client certificate.
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('https with the data dir material (client-protocol.md §2.2–2.3)', () => {
  let dir: string;
  let data: DataDirContents;
  let server: AuthProbeServer;
  let adminToken: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svctrail-mtls-'));
    data = await ensureDataDir({ dataDir: join(dir, 'data'), now });
    adminToken = data.tokens[0].token;
    server = await startAuthProbeServer(data, TokenIndex.fromRecords(data.tokens));
  });

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('(a) verifies the server with the CA alone and authenticates the admin token', async () => {
    const reply = await get(`${server.url}/whoami`, { ca: data.caCertPem, token: adminToken });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ name: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] });
    expect(server.seen.at(-1)).toMatchObject({ peerAuthorized: false, authorization: `Bearer ${adminToken}` });
  });

  it('also serves https://localhost and https://[::1] (SANs)', async () => {
    const port = new URL(server.url).port;
    expect((await get(`https://localhost:${port}/whoami`, { ca: data.caCertPem, token: adminToken })).status).toBe(200);
    const v6 = await startAuthProbeServer(data, TokenIndex.fromRecords(data.tokens), '::1').catch(() => undefined);
    if (!v6) return; // no IPv6 loopback on this host
    try {
      expect((await get(`${v6.url}/whoami`, { ca: data.caCertPem, token: adminToken })).status).toBe(200);
    } finally {
      await v6.close();
    }
  });

  it('(b) authenticates an issued client certificate as CN / O groups, without an Authorization header', async () => {
    const ca = await loadCertificateAuthority({ certPem: data.caCertPem, keyPem: data.caKeyPem });
    const client = await issueClientCertificate(ca, { user: 'alice', groups: ['system:masters', 'devs'] }, now);
    const reply = await get(`${server.url}/whoami`, { ca: data.caCertPem, client });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ name: 'alice', groups: ['system:masters', 'devs', 'system:authenticated'] });
    expect(server.seen.at(-1)).toMatchObject({ peerAuthorized: true, authorization: undefined });
  });

  it('(c) rejects a client certificate signed by a different CA', async () => {
    const strangerCa = await createCertificateAuthority('stranger-ca', now);
    const client = await issueClientCertificate(strangerCa, { user: 'mallory', groups: ['system:masters'] }, now);
    const reply = await get(`${server.url}/whoami`, { ca: data.caCertPem, client });
    expect(reply.status).toBe(401);
    expect(server.seen.at(-1)).toMatchObject({ peerAuthorized: false, user: null });
  });

  it('(c) but a foreign certificate next to a valid token still authenticates by token, as upstream union does', async () => {
    const strangerCa = await createCertificateAuthority('stranger-ca', now);
    const client = await issueClientCertificate(strangerCa, { user: 'mallory', groups: [] }, now);
    const reply = await get(`${server.url}/whoami`, { ca: data.caCertPem, client, token: adminToken });
    expect(JSON.parse(reply.body).name).toBe('admin');
  });

  it('rejects the serving certificate used as a client certificate (no clientAuth usage)', async () => {
    const client = { certPem: data.servingCertPem, keyPem: data.servingKeyPem };
    const reply = await get(`${server.url}/whoami`, { ca: data.caCertPem, client });
    expect(reply.status).toBe(401);
    expect(server.seen.at(-1)!.user).toBeNull();
  });

  it.each([
    ['a missing token', undefined],
    ['a garbage token', 'garbage'],
    ['an empty token', ''],
    ['a truncated admin token', 'x'],
  ])('(d) answers 401 to %s', async (_name, token) => {
    const value = token === 'x' ? adminToken.slice(0, -1) : token;
    const reply = await get(`${server.url}/whoami`, { ca: data.caCertPem, token: value });
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('is not trusted by a client that lacks the CA', async () => {
    await expect(get(`${server.url}/whoami`, { ca: (await createCertificateAuthority('x', now)).certPem })).rejects.toThrow(/self[- ]signed|unable to verify|unknown authority/i);
  });
});
