// Authentication over real HTTPS: bearer tokens, client certificates from the data directory's
// CA, 401 Status for anything else, and the endpoints that need no credentials.
import { repeatedText } from '../../src/store/sql/event-columns';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { createCertificateAuthority, issueClientCertificate } from '../../src/tls/certificates';
import { parse as parseYaml } from 'yaml';
import { HttpsClient } from '../helpers/https-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

const UNAUTHORIZED = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}';

describe('authentication', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it.each(['/api/v1/services', '/api', '/api/v1/namespaces/default/services/kubernetes', '/no/such/path'])('%s without credentials is 401', async (path) => {
    const res = await t.client.get(path, { token: null });
    expect(res.status).toBe(401);
    expect(res.text).toBe(UNAUTHORIZED);
  });

  it('a wrong token is 401', async () => {
    const res = await t.client.get('/api/v1/services', { token: 'not-a-token' });
    expect(res.status).toBe(401);
  });

  it.each(['/healthz', '/livez', '/readyz'])('%s answers ok without credentials', async (path) => {
    const res = await t.client.get(path, { token: null });
    expect(res.status).toBe(200);
    expect(res.text).toBe('ok');
  });

  it('/version answers without credentials and reports v1.32', async () => {
    const res = await t.client.get('/version', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ major: '1', minor: '32' });
    expect(res.json.gitVersion).toMatch(/^v1\.32\./);
  });

  it('a client certificate from issue-credentials authenticates, and its user is recorded as the writer', async () => {
    // system:masters: the policy file is read at startup, so a user added now needs that group.
    const issued = await issueCredentials({ user: 'alice', groups: ['system:masters', 'devs'], dataDir: t.dataDir, server: t.server.url, now: () => new Date() });
    const kubeconfig = parseYaml(readFileSync(issued.kubeconfigPath, 'utf8'));
    const user = kubeconfig.users[0].user;
    const client = new HttpsClient(t.server.url, {
      ca: t.ca,
      cert: Buffer.from(user['client-certificate-data'], 'base64').toString(),
      key: Buffer.from(user['client-key-data'], 'base64').toString(),
    });
    const created = await client.post('/api/v1/namespaces/certs/services', { metadata: { name: 'by-alice' }, spec: { ports: [{ port: 80 }] } });
    expect(created.status).toBe(201);
    const db = new Database(join(t.dataDir, 'svctrail.db'), { readonly: true });
    const row = db.prepare(`SELECT ${repeatedText('actor_user')} AS actor_user, ${repeatedText('actor_groups')} AS actor_groups, verb FROM events WHERE name = 'by-alice'`).get();
    db.close();
    expect(row).toEqual({ actor_user: 'alice', actor_groups: JSON.stringify(['system:masters', 'devs', 'system:authenticated']), verb: 'create' });
  });

  it('a certificate from another CA is 401', async () => {
    const now = () => new Date();
    const otherCa = await createCertificateAuthority('other', now);
    const cert = await issueClientCertificate(otherCa, { user: 'mallory', groups: ['system:masters'] }, now);
    const client = new HttpsClient(t.server.url, { ca: t.ca, cert: cert.certPem, key: cert.keyPem });
    const res = await client.get('/api/v1/services');
    expect(res.status).toBe(401);
  });
});
