// The Address view of a mirrored cluster in Debian's chromium: who set and who cleared an address,
// each saying how it is known — the audit event's user "(audit)", or the field manager whose
// managedFields entry the write changed "(field manager)", a hint.
import type { Browser, Page } from 'playwright-core';
import { AUDITED_USER, type AuditedMirror, auditEventList, startAuditedMirror } from '../helpers/audited-mirror';
import { buildUi, closeBrowser, describeInBrowser, launch, newContext, signInWithToken } from './ui-browser';

describeInBrowser('the Address view of a mirrored cluster', () => {
  let m: AuditedMirror;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    buildUi();
    m = await startAuditedMirror(async (source) => {
      expect((await source.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } })).status).toBe(201);
    });
    const set = await m.setIngress('a', 'lb', '203.0.113.41', 'metallb-controller');
    expect(await m.postAudit(auditEventList('audit-set', set, { resource: 'services', subresource: 'status' }))).toBe(200);
    await m.setIngress('a', 'lb', '203.0.113.42', 'kube-vip');
    browser = await launch();
    page = await (await newContext(browser)).newPage();
    await signInWithToken(page, m.mirror.server.url, m.mirror.adminToken);
  }, 120_000);

  afterAll(async () => {
    await closeBrowser(browser);
    await m?.stop();
  });

  it('names who set and cleared the address, and how each is known', async () => {
    await page.goto(`${m.mirror.server.url}/ui/?view=address&address=203.0.113.41`);
    await page.getByTestId('owners-table').waitFor();
    const cells = await page.locator('[data-testid=owners-table] tbody tr td').allTextContents();
    expect(cells[0]).toBe('a/lb');
    expect([cells[2], cells[4]]).toEqual([`${AUDITED_USER} (audit)`, 'kube-vip (field manager)']);
  });
});
