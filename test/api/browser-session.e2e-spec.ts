// The browser UI's HTTP surface without a browser: the public shell and its cache headers, the
// session endpoints' refusals, and what a cookie-only request may do. (test/ui/ covers the same in
// chromium; this file runs everywhere.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/test-server';

describe('browser UI over HTTPS', () => {
  let t: TestServer;
  let dist: string;
  const origin = () => t.server.url;
  const signIn = (body: object, headers: Record<string, string> = { origin: origin(), 'sec-fetch-site': 'same-origin' }) =>
    t.client.post('/ui/api/session', JSON.stringify(body), { token: null, contentType: 'application/json', headers });
  const cookieFrom = (res: { headers: Record<string, string | string[] | undefined> }) => {
    const header = String(res.headers['set-cookie']);
    return /^(__Host-svctrail-session=[^;]+);/.exec(header)![1];
  };

  beforeAll(async () => {
    // A stand-in build: serving is independent of what Vite produced.
    dist = mkdtempSync(join(tmpdir(), 'svctrail-ui-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><script type="module" src="./assets/app-1a2b3c.js"></script>');
    writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
    t = await startTestServer({ config: { uiDistFolder: dist } });
    await t.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the shell and assets without credentials, with a strict CSP; the shell is no-cache, hashed assets immutable', async () => {
    const redirect = await t.client.get('/ui', { token: null });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('ui/');
    expect((await t.client.get('/ui?view=live&ns=a', { token: null })).headers.location).toBe('ui/?view=live&ns=a');
    const shell = await t.client.get('/ui/?view=timeline&ns=a&name=web', { token: null, accept: 'text/html' });
    expect(shell.status).toBe(200);
    expect(shell.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(shell.headers['cache-control']).toBe('no-cache');
    expect(shell.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self';.*frame-ancestors 'none'$/);
    expect(shell.headers['x-content-type-options']).toBe('nosniff');
    const asset = await t.client.get('/ui/assets/app-1a2b3c.js', { token: null, accept: '*/*' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.client.get('/ui/missing.js', { token: null });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
    expect((await t.client.get('/ui/tokens.csv', { token: null })).status).toBe(404);
  });

  it('a token becomes a session cookie with every flag; a wrong token is a 401 Status', async () => {
    const res = await signIn({ token: t.adminToken });
    expect(res.status).toBe(201);
    expect(res.headers['set-cookie']).toEqual([expect.stringMatching(/^__Host-svctrail-session=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Strict; Max-Age=28800$/)]);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json).toEqual({ user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] }, idleTimeoutSeconds: 1800, maxAgeSeconds: 28800 });
    const wrong = await signIn({ token: 'not-a-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const noCertificate = await signIn({});
    expect(noCertificate.status).toBe(401);
    for (const body of ['[]', '"x"', '{"token": 5}', 'not json']) {
      const bad = await t.client.post('/ui/api/session', body, { token: null, contentType: 'application/json', headers: { origin: origin() } });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ kind: 'Status', code: 400 });
    }
  });

  it('refuses sign-in and sign-out that are not same-origin JSON, before reading the body', async () => {
    const body = JSON.stringify({ token: t.adminToken });
    const cases: [string | undefined, Record<string, string>][] = [
      ['application/json', { origin: 'https://evil.example' }],
      ['application/json', { 'sec-fetch-site': 'cross-site' }],
      ['application/json', { 'sec-fetch-site': 'same-site', origin: origin() }],
      ['application/json', {}],
      ['text/plain', { origin: origin() }],
      ['application/x-www-form-urlencoded', { 'sec-fetch-site': 'same-origin' }],
    ];
    for (const [contentType, headers] of cases) {
      const res = await t.client.post('/ui/api/session', body, { token: null, contentType, headers });
      expect({ contentType, headers, status: res.status, reason: res.json?.reason }).toEqual({ contentType, headers, status: 403, reason: 'Forbidden' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const cookie = cookieFrom(await signIn({ token: t.adminToken }));
    const signOut = await t.client.request('DELETE', '/ui/api/session', { token: null, headers: { cookie, origin: 'https://evil.example' }, body: '{}', contentType: 'application/json' });
    expect(signOut.status).toBe(403);
    expect((await t.client.get('/ui/api/session', { token: null, headers: { cookie } })).status).toBe(200);
  });

  it('a cookie-only request may read Services, Events and history (no-store), and nothing else', async () => {
    const cookie = cookieFrom(await signIn({ token: t.adminToken }));
    const as = { token: null, headers: { cookie } };
    for (const path of ['/api/v1/services', '/api/v1/namespaces/a/services/web', '/api/v1/namespaces/a/events', '/apis/history.svctrail.io/v1alpha1/namespaces/a/services/web/changes']) {
      const res = await t.client.get(path, as);
      expect({ path, status: res.status, cache: res.headers['cache-control'] }).toEqual({ path, status: 200, cache: 'no-store' });
    }
    const current = (await t.client.get('/api/v1/namespaces/a/services/web')).json;
    const writes = [
      t.client.put('/api/v1/namespaces/a/services/web', current, as),
      t.client.put('/api/v1/namespaces/a/services/web/status', current, as),
      t.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'new' }, spec: { ports: [{ port: 80 }] } }, as),
      t.client.delete('/api/v1/namespaces/a/services/web', as),
      t.client.request('PATCH', '/api/v1/namespaces/a/services/web', { ...as, body: '{}', contentType: 'application/merge-patch+json' }),
      t.client.get('/metrics', as),
      t.client.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { nonResourceAttributes: { path: '/x', verb: 'get' } } }, as),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    }
    expect((await t.client.get('/api/v1/namespaces/a/services/web')).json.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
  });

  it('signing in again replaces the old session; sign-out ends the current one', async () => {
    const first = cookieFrom(await signIn({ token: t.adminToken }));
    const second = cookieFrom(await signIn({ token: t.adminToken }, { origin: origin(), cookie: first }));
    expect(second).not.toBe(first);
    expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie: first } })).status).toBe(401);
    expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie: second } })).status).toBe(200);
    const out = await t.client.request('DELETE', '/ui/api/session', { token: null, headers: { cookie: second, origin: origin() }, body: '{}', contentType: 'application/json' });
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie']).toEqual(['__Host-svctrail-session=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0']);
    expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie: second } })).status).toBe(401);
    expect((await t.client.get('/ui/api/session', { token: null, headers: { cookie: second } })).status).toBe(401);
  });

  it('answers 503 with a hint when the UI was never built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'svctrail-ui-empty-'));
    const other = await startTestServer({ config: { uiDistFolder: empty } });
    try {
      const res = await other.client.get('/ui/', { token: null });
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ kind: 'Status', code: 503, reason: 'ServiceUnavailable' });
      expect(res.json.message).toContain('npm run build');
    } finally {
      await other.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
