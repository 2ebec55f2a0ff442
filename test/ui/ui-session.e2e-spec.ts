// Signing in to the browser UI, in Debian's chromium against the real server: a token or a
// client certificate becomes a session cookie (__Host-, Secure, HttpOnly, SameSite=Strict) that
// can only read, expires when idle, and ends on sign-out; sign-in from another origin or without
// a JSON body is refused; the shell carries a strict CSP and API answers are not stored.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { appendTokenRecord, generateToken } from '../../src/auth/token-file';
import { appendPolicyLines, ensurePolicyFile, policyFilePath } from '../../src/authz/policy-file';
import { policyFor } from '../../src/authz/policy-presets';
import { FixedClock } from '../../src/shared/clock';
import { issueClientCertificate, loadCertificateAuthority } from '../../src/tls/certificates';
import { ADMIN_USER, ensureDataDir } from '../../src/tls/data-dir';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { buildUi, closeBrowser, describeInBrowser, launch, newContext, signInWithToken } from './ui-browser';

const IDLE_SECONDS = 120;
const MAX_SECONDS = 600;

describeInBrowser('browser sign-in', () => {
  let t: TestServer;
  let browser: Browser;
  let dataDir: string;
  const clock = new FixedClock(new Date('2026-06-01T10:00:00.000Z'));
  const viewerToken = generateToken();

  beforeAll(async () => {
    buildUi();
    dataDir = mkdtempSync(join(tmpdir(), 'svctrail-ui-session-'));
    await ensureDataDir({ dataDir, now: () => clock.now() });
    await ensurePolicyFile(policyFilePath(dataDir), ADMIN_USER);
    // A user who may read team-a only: the browser session must not be able to do more than the token can.
    await appendTokenRecord(join(dataDir, 'tokens.csv'), { token: viewerToken, user: 'viewer', uid: 'uid-viewer', groups: ['ops'] });
    await appendPolicyLines(policyFilePath(dataDir), policyFor('readonly', 'viewer', 'team-a'));
    t = await startTestServer({ dataDir, clock, config: { uiSessionIdleSeconds: IDLE_SECONDS, uiSessionMaxSeconds: MAX_SECONDS } });
    await t.client.post('/api/v1/namespaces/team-a/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    browser = await launch();
  });

  afterAll(async () => {
    await closeBrowser(browser);
    await t?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cookieOf = async (context: import('playwright-core').BrowserContext) => (await context.cookies(t.server.url)).find((c) => c.name === '__Host-svctrail-session');

  it('a token signs in: the cookie is __Host-, Secure, HttpOnly, SameSite=Strict, and the token is nowhere in the page, URL or storage', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signInWithToken(page, t.server.url, t.adminToken);
    expect(await page.getByTestId('signed-in-user').textContent()).toBe(ADMIN_USER);
    const cookie = await cookieOf(context);
    expect(cookie).toMatchObject({ path: '/', secure: true, httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.domain).toBe('127.0.0.1');
    expect(cookie!.value).not.toContain(t.adminToken);
    expect(page.url()).not.toContain(t.adminToken);
    // (Expressions as strings: they run in the page, whose DOM types the test project does not load.)
    const storage = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })');
    expect(storage).not.toContain(t.adminToken);
    // HttpOnly: scripts cannot see the session cookie.
    expect(storage).not.toContain('svctrail-session');
    await context.close();
  });

  it('the shell and assets need no credentials, carry a strict CSP, and API answers to the session are no-store', async () => {
    const shell = await t.client.get('/ui/', { token: null, accept: 'text/html' });
    expect(shell.status).toBe(200);
    expect(shell.headers['content-security-policy']).toContain("default-src 'self'");
    expect(shell.headers['content-security-policy']).toContain("script-src 'self'");
    expect(shell.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(shell.headers['cache-control']).toBe('no-cache');
    expect(shell.text).not.toMatch(/<script>(?!<\/script>)/);
    const asset = /src="\.\/(assets\/[^"]+\.js)"/.exec(shell.text)![1];
    const js = await t.client.get(`/ui/${asset}`, { token: null, accept: '*/*' });
    expect(js.status).toBe(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const context = await newContext(browser);
    const page = await context.newPage();
    const answer = page.waitForResponse((r) => r.url().includes('/api/v1/services'));
    await signInWithToken(page, t.server.url, t.adminToken);
    const response = await answer;
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('no-store');
    await context.close();
  });

  it('a cookie-only session cannot write, even for a user whose token can (403 Status); the read it may do is still authorized as that user', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signInWithToken(page, t.server.url, t.adminToken);
    const cookie = `__Host-svctrail-session=${(await cookieOf(context))!.value}`;
    const current = await t.client.get('/api/v1/namespaces/team-a/services/web');
    const put = await t.client.put('/api/v1/namespaces/team-a/services/web', current.json, { token: null, headers: { cookie } });
    expect(put.status).toBe(403);
    expect(put.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    const del = await t.client.delete('/api/v1/namespaces/team-a/services/web', { token: null, headers: { cookie } });
    expect(del.status).toBe(403);
    // From inside the page too (same origin, cookie attached by the browser).
    const fromPage = await page.evaluate(async () => (await fetch('../api/v1/namespaces/team-a/services/web', { method: 'DELETE' })).status);
    expect(fromPage).toBe(403);
    expect((await t.client.get('/api/v1/namespaces/team-a/services/web')).status).toBe(200);
    await context.close();

    // The viewer's policy allows reads in team-a only: the session's reads are authorized as viewer.
    const viewer = await newContext(browser);
    const viewerPage = await viewer.newPage();
    await signInWithToken(viewerPage, t.server.url, viewerToken);
    const viewerCookie = `__Host-svctrail-session=${(await cookieOf(viewer))!.value}`;
    const read = async (path: string) => (await t.client.get(path, { token: null, headers: { cookie: viewerCookie } })).status;
    expect(await read('/api/v1/namespaces/team-a/services/web')).toBe(200);
    expect(await read('/apis/history.svctrail.io/v1alpha1/namespaces/team-a/services/web/changes')).toBe(200);
    const denied = await t.client.get('/api/v1/namespaces/team-b/services', { token: null, headers: { cookie: viewerCookie } });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('services is forbidden: User "viewer" cannot list resource "services" in API group "" in the namespace "team-b"');
    expect(await read('/api/v1/services')).toBe(403);
    // In the page, the cluster-wide Services list is refused with the policy's message.
    await viewerPage.getByRole('alert').waitFor();
    expect(await viewerPage.getByRole('alert').textContent()).toContain('User "viewer" cannot list resource "services"');
    await viewer.close();
  });

  it('sign-in from another origin, or without a JSON body, is refused with a 403 Status and no cookie', async () => {
    const body = JSON.stringify({ token: t.adminToken });
    const crossSite = await t.client.post('/ui/api/session', body, {
      token: null,
      contentType: 'application/json',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden' });
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    const form = await t.client.post('/ui/api/session', `token=${t.adminToken}`, { token: null, contentType: 'application/x-www-form-urlencoded', headers: { 'sec-fetch-site': 'same-origin' } });
    expect(form.status).toBe(403);
    const noOrigin = await t.client.post('/ui/api/session', body, { token: null, contentType: 'application/json' });
    expect(noOrigin.status).toBe(403);

    // A script on another origin (localhost is another site than 127.0.0.1) posting to svctrail:
    // the browser can only send a no-cors form-like request, with its Origin; the server refuses it.
    const context = await newContext(browser);
    const page = await context.newPage();
    const evil = t.server.url.replace('127.0.0.1', 'localhost');
    // Any page from that origin without the UI's CSP will do (a real loopback page, so Chrome lets it reach 127.0.0.1).
    await page.goto(`${evil}/version`);
    const answered = page.waitForResponse((r) => r.url() === `${t.server.url}/ui/api/session`);
    await page.evaluate(
      async ({ url, token }) => {
        await fetch(`${url}/ui/api/session`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ token }) }).catch(
          () => undefined,
        );
      },
      { url: t.server.url, token: t.adminToken },
    );
    const response = await answered;
    expect(response.status()).toBe(403);
    expect(await cookieOf(context)).toBeUndefined();
    await context.close();
  });

  it('a client certificate signs in without a token', async () => {
    const ca = await loadCertificateAuthority({ certPem: readFileSync(join(dataDir, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(dataDir, 'ca.key'), 'utf8') });
    const cert = await issueClientCertificate(ca, { user: 'carol', groups: ['system:masters'] }, () => new Date());
    const context = await newContext(browser, { clientCertificates: [{ origin: t.server.url, cert: Buffer.from(cert.certPem), key: Buffer.from(cert.keyPem) }] });
    const page = await context.newPage();
    await page.goto(`${t.server.url}/ui/`);
    await page.getByRole('button', { name: 'Use my client certificate' }).click();
    await page.getByTestId('signed-in-user').waitFor();
    expect(await page.getByTestId('signed-in-user').textContent()).toBe('carol');
    expect(await cookieOf(context)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    await context.close();
  });

  it('sign-out ends the session on the server: the old cookie no longer reads anything', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signInWithToken(page, t.server.url, t.adminToken);
    const cookie = `__Host-svctrail-session=${(await cookieOf(context))!.value}`;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Bearer token').waitFor();
    expect(await cookieOf(context)).toBeUndefined();
    expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie } })).status).toBe(401);
    await context.close();
  });

  it('an idle session expires, and so does a busy one at its absolute limit', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signInWithToken(page, t.server.url, t.adminToken);
    const cookie = `__Host-svctrail-session=${(await cookieOf(context))!.value}`;
    clock.advance((IDLE_SECONDS - 1) * 1000);
    expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie } })).status).toBe(200);
    clock.advance(IDLE_SECONDS * 1000);
    expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie } })).status).toBe(401);
    await page.reload();
    await page.getByLabel('Bearer token').waitFor();

    await signInWithToken(page, t.server.url, t.adminToken);
    const busy = `__Host-svctrail-session=${(await cookieOf(context))!.value}`;
    for (let used = 0; used < MAX_SECONDS; used += IDLE_SECONDS / 2) {
      expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie: busy } })).status).toBe(200);
      clock.advance((IDLE_SECONDS / 2) * 1000);
    }
    expect((await t.client.get('/api/v1/services', { token: null, headers: { cookie: busy } })).status).toBe(401);
    await context.close();
  });
});
