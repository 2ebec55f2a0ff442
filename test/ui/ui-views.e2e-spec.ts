// The UI's views in Debian's chromium against a real server with seeded history (a hand-moved
// clock, three controllers, their Events as client-go's recorder sends them — a Warning repeated,
// two reports of the address work each followed by its ingress change —, one address on two
// Services at once, hostile text in a user agent and an annotation): what each view shows, deep links, keyboard zoom and pan, the "as of"
// cursor against the time-travel API, the live feed, accessibility (axe-core), dark mode.
// Writes the README's screenshots to docs/screenshots/.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LegacyEventRecorder, type ServiceRef } from '../history/event-recorder';
import { type HistoryTestServer, putStatus, ready, START, startHistoryTestServer } from '../history/history-test-server';
import { buildUi, closeBrowser, describeInBrowser, launch, newContext, screenshot, seriousAccessibilityViolations, signInWithToken } from './ui-browser';

const LB = { type: 'LoadBalancer', ports: [{ port: 80 }] };
const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const FROM = iso(START);
const TO = iso(START + 60 * MIN);
const HOSTILE_AGENT = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
const HOSTILE_NOTE = '<img src=x onerror="window.__pwned=3"><script>window.__pwned=4</script>';
const QUOTA = 'Error syncing load balancer: failed to ensure load balancer: quota exceeded';
const LANES = ['ingress 203.0.113.7', 'ingress 203.0.113.8', 'controller Events', 'condition Ready', 'spec / metadata'];

// Predicates for waitForFunction are passed as functions (the page's CSP forbids the eval that
// string predicates need) and reach the DOM through globalThis (the test project has no DOM types).
describeInBrowser('browser views', () => {
  let t: HistoryTestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];

  const at = async (minute: number, write: () => Promise<unknown>) => {
    t.clock.advance(START + minute * MIN - t.clock.now().getTime());
    await write();
  };
  const url = (query: string) => `${t.server.url}/ui/?${query}`;
  const timelineQuery = (ns: string, name: string, extra = '') => `view=timeline&ns=${ns}&name=${name}&from=${FROM}&to=${TO}${extra}`;

  beforeAll(async () => {
    buildUi();
    t = await startHistoryTestServer([{ name: 'metallb', groups: ['lb-controllers'] }, { name: 'cloud-lb' }]);
    const admin = t.as('admin');
    const metallb = t.as('metallb');
    const cloud = t.as('cloud-lb');
    const web = (status: object, who = metallb, agent = 'metallb-controller/v0.14') => putStatus(who, 'team-a', 'web', status, agent);
    let webRef: ServiceRef = { namespace: 'team-a', name: 'web', uid: '' };
    await at(1, async () => {
      const created = (await admin.post('/api/v1/namespaces/team-a/services', { metadata: { name: 'web', labels: { app: 'web' } }, spec: LB })).json;
      webRef = { ...webRef, uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion };
    });
    const metallbEvents = new LegacyEventRecorder(metallb, 'metallb-controller', 'metallb-controller/v0.14');
    const cloudEvents = new LegacyEventRecorder(cloud, 'service-controller', 'cloud-lb/2.1');
    const now = () => t.clock.now().getTime();
    // MetalLB reports the address, then writes it.
    await at(4.9, () => metallbEvents.event(webRef, 'Normal', 'IPAllocated', 'Assigned IP ["203.0.113.7"]', now()));
    await at(5, () => web({ loadBalancer: { ingress: [{ ip: '203.0.113.7' }] }, conditions: [ready('True', 'Serving', START + 5 * MIN)] }));
    await at(8, () => admin.post('/api/v1/namespaces/team-b/services', { metadata: { name: 'api' }, spec: LB }));
    await at(10, () => putStatus(metallb, 'team-b', 'api', { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } }, 'metallb-controller/v0.14'));
    await at(12, () => cloudEvents.event(webRef, 'Warning', 'SyncLoadBalancerFailed', QUOTA, now()));
    await at(13, () => cloudEvents.event(webRef, 'Warning', 'SyncLoadBalancerFailed', QUOTA, now()));
    await at(15, () => web({ loadBalancer: { ingress: [{ ip: '203.0.113.7' }] }, conditions: [ready('False', 'Unhealthy', START + 15 * MIN)] }, cloud, 'cloud-lb/2.1'));
    await at(20, () => web({ loadBalancer: { ingress: [{ ip: '203.0.113.7' }] }, conditions: [ready('True', 'Serving', START + 20 * MIN)] }));
    // The cloud controller reports its load balancer, then moves the address.
    await at(29.9, () => cloudEvents.event(webRef, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer', now()));
    await at(30, () => web({ loadBalancer: { ingress: [{ ip: '203.0.113.8' }] }, conditions: [ready('True', 'Serving', START + 20 * MIN)] }, cloud, 'cloud-lb/2.1'));
    await at(40, () => putStatus(metallb, 'team-b', 'api', { loadBalancer: {} }, 'metallb-controller/v0.14'));
    await at(45, () => admin.post('/api/v1/namespaces/team-c/services', { metadata: { name: 'odd', annotations: { note: HOSTILE_NOTE } }, spec: LB }));
    await at(46, () => putStatus(metallb, 'team-c', 'odd', { loadBalancer: { ingress: [{ hostname: 'odd.example.com' }] } }, HOSTILE_AGENT));
    await at(50, async () => {
      const current = (await admin.get('/api/v1/namespaces/team-a/services/web')).json;
      await admin.put('/api/v1/namespaces/team-a/services/web', { ...current, metadata: { ...current.metadata, labels: { app: 'web', tier: 'front' } } });
    });
    browser = await launch();
    context = await newContext(browser);
    page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  afterAll(async () => {
    await closeBrowser(browser);
    await t?.stop();
  });

  const chart = () => page.locator('.chart').first();
  const laneTitles = async () => (await page.locator('.lane-title').allTextContents()).map((s) => s.trim());
  /** Presses a key on the focused chart and returns the selection text once the page re-rendered it. */
  const select = async (key: string) => {
    const before = await page.getByTestId('chart-selection').textContent();
    await page.keyboard.press(key);
    await page.waitForFunction((old) => (globalThis as any).document.querySelector('[data-testid=chart-selection]')?.textContent !== old, before);
    return page.getByTestId('chart-selection').textContent();
  };
  /** The rows of a table once it holds `count` of them (the URL changes before the re-render). */
  const tableRows = async (testId: string, count: number) => {
    await page.waitForFunction(([id, n]) => (globalThis as any).document.querySelectorAll(`[data-testid=${id}] tbody tr`).length === n, [testId, count] as const);
    return page.locator(`[data-testid=${testId}] tbody tr`).allTextContents();
  };
  /** Waits until the chart shows the window the URL holds (the URL changes before the re-render). */
  const settled = () =>
    page.waitForFunction(() => (globalThis as any).document.querySelector('.chart')?.getAttribute('data-from') === new URL((globalThis as any).document.location.href).searchParams.get('from'));
  const routeParams = () => new URL(page.url()).searchParams;
  /** The plot's box once the page has stopped laying out (the change list and lanes load after the chart). */
  const stablePlotBox = async (on: Page = page) => {
    await on.locator('[data-testid="change-list"] .change').first().waitFor();
    let last = await on.locator('.chart-plot canvas').boundingBox();
    for (let tries = 0; tries < 50; tries++) {
      await on.waitForTimeout(100);
      const box = await on.locator('.chart-plot canvas').boundingBox();
      if (box && last && box.x === last.x && box.y === last.y && box.width === last.width) return box;
      last = box;
    }
    throw new Error('the plot kept moving');
  };

  it('the sign-in page has no serious accessibility violations', async () => {
    await page.goto(url('view=services'));
    await page.getByLabel('Bearer token').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await signInWithToken(page, t.server.url, t.adminToken, `/ui/?view=services`);
  });

  it('the Services view lists the seeded Services with type, labels and address, and passes axe', async () => {
    await page.getByTestId('services-table').waitFor();
    const rows = await page.locator('[data-testid=services-table] tbody tr').allTextContents();
    expect(rows.find((r) => r.includes('web'))).toEqual(expect.stringContaining('LoadBalancer'));
    expect(rows.find((r) => r.includes('web'))).toEqual(expect.stringContaining('app=web'));
    expect(rows.find((r) => r.includes('web'))).toEqual(expect.stringContaining('203.0.113.8'));
    await page.getByLabel('Namespace').fill('team-b');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/ns=team-b/);
    expect(await tableRows('services-table', 1)).toEqual([expect.stringContaining('api')]);
    // Type is a server-side field selector too.
    await page.getByLabel('Namespace').fill('');
    await page.getByLabel('Type').selectOption('ClusterIP');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/type=ClusterIP/);
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid=services-table] tbody tr')?.textContent?.startsWith('default') === true);
    expect(await tableRows('services-table', 1)).toEqual([expect.stringMatching(/^defaultkubernetesClusterIP/)]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Pages come from the server (limit/continue); the page stack is in the URL.
    await page.goto(url('view=services&limit=3'));
    const names = async (count: number) => (await tableRows('services-table', count)).map((r) => r.split(/LoadBalancer|ClusterIP/)[0]);
    expect(await names(3)).toEqual(['defaultkubernetes', 'team-aweb', 'team-bapi']);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/pages=/);
    expect(await names(1)).toEqual(['team-codd']);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    expect(await names(3)).toEqual(['defaultkubernetes', 'team-aweb', 'team-bapi']);
    // Each row's activity over a window in the URL (default: the last 24 hours), per 1/24 of it.
    await page.goto(url(`view=services&from=${FROM}&to=${TO}`));
    await page.getByTestId('services-table').waitFor();
    const web = page.locator('[data-testid=services-table] tbody tr', { hasText: 'web' });
    await web.locator('.activity').waitFor();
    expect((await web.locator('.activity').textContent())!.trim()).toBe('6'); // create, status at 5, 15, 20, 30, labels at 50
    await screenshot(page, 'services');
  });

  it('the timeline shows the ingress intervals and condition segments with who set and cleared them', async () => {
    await page.goto(url(timelineQuery('team-a', 'web')));
    await chart().waitFor();
    expect(await laneTitles()).toEqual(LANES);
    await chart().focus();
    expect(await select('ArrowDown')).toMatch(/^203\.0\.113\.7: 203\.0\.113\.7 \(ip\) set by metallb at rv \d+; cleared by cloud-lb at rv \d+$/);
    expect(await select('ArrowDown')).toMatch(/^203\.0\.113\.8: 203\.0\.113\.8 \(ip\) set by cloud-lb at rv \d+; still held$/);
    expect(await select('ArrowDown')).toMatch(/^Events: Normal IPAllocated created; by metallb-controller; /);
    expect(await select('ArrowDown')).toBe('Ready: Ready True, reason Serving, set by metallb');
    expect(await select('ArrowRight')).toBe('Ready: Ready False, reason Unhealthy, set by cloud-lb');
    expect(await select('ArrowRight')).toBe('Ready: Ready True, reason Serving, set by metallb');
    expect(await select('ArrowDown')).toMatch(/^spec \/ metadata: created change\(s\)/);
    // The change list names each actor: user, groups, user agent and field manager.
    const changes = page.getByTestId('change-list');
    await changes.locator('li.change').first().waitFor();
    const unhealthy = changes.locator('li.change', { hasText: 'cloud-lb/2.1' }).first();
    expect(await unhealthy.locator('[data-field=user]').textContent()).toBe('cloud-lb');
    expect(await unhealthy.locator('[data-field=field-manager]').textContent()).toBe('cloud-lb');
    // Each replaced value with the value it replaced, in the same card as the actor.
    const status = unhealthy.locator('.diff li', { hasText: '/status/conditions/0/status' });
    await status.locator('del').waitFor();
    expect([await status.locator('del').textContent(), await status.locator('ins').textContent()]).toEqual(['"True"', '"False"']);
    const moved = changes.locator('li.change', { hasText: 'cloud-lb/2.1' }).nth(1).locator('.diff li', { hasText: '/status/loadBalancer/ingress/0/ip' });
    expect((await moved.textContent())!.replace(/\s+/g, ' ')).toBe('~ /status/loadBalancer/ingress/0/ip "203.0.113.7" → "203.0.113.8"');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'timeline');
  });

  it('the table view holds the same intervals and transitions as the chart', async () => {
    await page.getByRole('button', { name: 'Show table' }).click();
    await page.getByTestId('ingress-table').waitFor();
    const ingress = await page.locator('[data-testid=ingress-table] tbody tr').allTextContents();
    expect(ingress).toEqual([expect.stringMatching(/^203\.0\.113\.7.*metallb.*cloud-lb$/), expect.stringMatching(/^203\.0\.113\.8.*cloud-lb.*still held$/)]);
    const conditions = await page.locator('[data-testid=conditions-table] tbody tr').allTextContents();
    expect(conditions).toEqual([expect.stringMatching(/Ready—TrueServingmetallb$/), expect.stringMatching(/ReadyTrueFalseUnhealthycloud-lb$/), expect.stringMatching(/ReadyFalseTrueServingmetallb$/)]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show chart' }).click();
    await chart().waitFor();
  });

  it('the Events lane: what controllers said, a Warning unmissable, each report linked to the ingress change it explains', async () => {
    await page.goto(url(timelineQuery('team-a', 'web')));
    await chart().waitFor();
    await settled();
    // Above the chart, in words: the Warnings of the window.
    expect((await page.getByTestId('warning-note').textContent())!.replace(/\s+/g, ' ').trim()).toBe('⚠ 2 Warning Event writes in this window from service-controller: SyncLoadBalancerFailed.');
    const changes = (await t.client.get('/apis/history.svctrail.io/v1alpha1/namespaces/team-a/services/web/changes?eventType=LoadBalancerIngressChanged')).json.items;
    const [toSeven, toEight] = changes.map((c: any) => c.metadata.resourceVersion);
    await chart().focus();
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown']) await select(key);
    expect(await page.getByTestId('chart-selection').textContent()).toMatch(
      new RegExp(
        `^Events: Normal IPAllocated created; by metallb-controller; “Assigned IP \\["203\\.0\\.113\\.7"\\]”; seen 2026-03-01T00:04:54Z; written by metallb at rv \\d+; explains the ingress change at rv ${toSeven} \\(ingress none → 203\\.0\\.113\\.7\\)$`,
      ),
    );
    expect(await select('ArrowRight')).toMatch(
      /^Events: Warning SyncLoadBalancerFailed created; by service-controller; “Error syncing load balancer: failed to ensure load balancer: quota exceeded”; seen 2026-03-01T00:12:00Z; written by cloud-lb at rv \d+$/,
    );
    expect(await select('ArrowRight')).toMatch(
      /^Events: Warning SyncLoadBalancerFailed repeated, count 2; by service-controller; .*; first seen 2026-03-01T00:12:00Z, last seen 2026-03-01T00:13:00Z; written by cloud-lb at rv \d+$/,
    );
    expect(await select('ArrowRight')).toMatch(
      new RegExp(`^Events: Normal EnsuredLoadBalancer created; by service-controller; .*; explains the ingress change at rv ${toEight} \\(ingress 203\\.0\\.113\\.7 → 203\\.0\\.113\\.8\\)$`),
    );
    // Enter puts the cursor on the report; the Service then did not have the new address yet.
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('at') === iso(START + 29.9 * MIN));
    // Each mark is drawn where its write is, a Warning's too.
    const marks = await page.evaluate<{ kind: string; x: number; width: number }[]>(`document.querySelector('.chart-plot canvas').drawnSegments.filter((d) => d.kind === 'events')`);
    const plot = await stablePlotBox();
    expect(marks.map((m) => Math.round(((m.x + m.width / 2) / plot.width) * 60 * 10) / 10)).toEqual([4.9, 12, 13, 29.9]);
    // Hovering the repeated Warning shows its details beside it.
    await page.mouse.move(plot.x + marks[2].x + marks[2].width / 2, plot.y + 2 * 30 + 15);
    const tooltip = page.getByTestId('chart-tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toContain('Warning SyncLoadBalancerFailed repeated, count 2; by service-controller; “Error syncing load balancer');
    expect(await tooltip.getAttribute('class')).toContain('is-warning');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'timeline-events');
    await page.mouse.move(0, 0);
    // The table says the same, the Warnings with their icon and word, the reports with the change they explain.
    await page.getByRole('button', { name: 'Show table' }).click();
    const rows = await tableRows('events-table', 4);
    expect(rows.map((r) => r.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z/, ''))).toEqual([
      `NormalIPAllocatedcreated1Assigned IP ["203.0.113.7"]metallb-controllerrv ${toSeven}: ingress none → 203.0.113.7`,
      `⚠ WarningSyncLoadBalancerFailedcreated1${QUOTA}service-controller`,
      `⚠ WarningSyncLoadBalancerFailedrepeated2${QUOTA}service-controller`,
      `NormalEnsuredLoadBalancercreated1Ensured load balancerservice-controllerrv ${toEight}: ingress 203.0.113.7 → 203.0.113.8`,
    ]);
    expect(await page.locator('[data-testid=events-table] tr.is-warning').count()).toBe(2);
    expect(await page.locator('[data-testid=events-table] tr.is-warning .event-warning').first().textContent()).toBe('⚠ Warning');
    // A link moves the "as of" cursor to the change it names.
    await page.getByRole('button', { name: `rv ${toEight}: ingress 203.0.113.7 → 203.0.113.8` }).click();
    await page.waitForURL((u) => u.searchParams.get('at') === iso(START + 30 * MIN));
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show chart' }).click();
    await chart().waitFor();
  });

  it('zoom and pan by keyboard change the window in the URL; the URL opened anew reproduces the view', async () => {
    await chart().focus();
    await page.keyboard.press('+');
    await page.waitForURL((u) => u.searchParams.get('from') !== FROM);
    await settled();
    const zoomedFrom = Date.parse(routeParams().get('from')!);
    const zoomedTo = Date.parse(routeParams().get('to')!);
    expect(zoomedTo - zoomedFrom).toBe(30 * MIN);
    expect((zoomedFrom + zoomedTo) / 2).toBe(START + 30 * MIN);
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForURL((u) => Date.parse(u.searchParams.get('from')!) !== zoomedFrom);
    await settled();
    expect(Date.parse(routeParams().get('from')!)).toBe(zoomedFrom + 7.5 * MIN);
    expect(Date.parse(routeParams().get('to')!)).toBe(zoomedTo + 7.5 * MIN);
    await page.keyboard.press('-');
    await page.waitForURL((u) => Date.parse(u.searchParams.get('to')!) - Date.parse(u.searchParams.get('from')!) === 60 * MIN);
    await settled();
    const link = page.url();
    const before = { titles: await laneTitles(), window: await page.getByTestId('window').textContent(), from: await chart().getAttribute('data-from') };

    const other = await context.newPage();
    await other.goto(link);
    await other.locator('.chart').waitFor();
    expect({
      titles: (await other.locator('.lane-title').allTextContents()).map((s) => s.trim()),
      window: await other.getByTestId('window').textContent(),
      from: await other.locator('.chart').getAttribute('data-from'),
    }).toEqual(before);
    expect(new URL(link).searchParams.get('from')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Local time is a switch kept in the URL; the URL's instants stay UTC.
    await other.getByRole('button', { name: /Times in UTC/ }).click();
    await other.waitForURL(/tz=local/);
    expect(await other.getByTestId('window').textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d → /);
    expect(new URL(other.url()).searchParams.get('from')).toBe(new URL(link).searchParams.get('from'));
    await other.close();
  });

  it('with the mouse: a click sets the cursor, a drag pans, the wheel zooms', async () => {
    await page.goto(url(timelineQuery('team-a', 'web')));
    await chart().waitFor();
    await settled();
    const plot = await stablePlotBox();
    const y = plot.y + 10;
    // The middle of the plot is 30 minutes into the hour.
    await page.mouse.click(plot.x + plot.width / 2, y);
    await page.waitForURL((u) => u.searchParams.has('at'));
    expect(Math.abs(Date.parse(routeParams().get('at')!) - (START + 30 * MIN))).toBeLessThan(MIN);
    await page.getByTestId('as-of-object').waitFor();
    await page.mouse.move(plot.x + plot.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(plot.x + plot.width / 4, y, { steps: 5 });
    await page.mouse.up();
    await page.waitForURL((u) => u.searchParams.get('from') !== FROM);
    // Dragged left by a quarter of the width: the window moved 15 minutes later, same span.
    expect(Math.abs(Date.parse(routeParams().get('from')!) - (START + 15 * MIN))).toBeLessThan(MIN);
    expect(Date.parse(routeParams().get('to')!) - Date.parse(routeParams().get('from')!)).toBe(60 * MIN);
    const before = Date.parse(routeParams().get('to')!) - Date.parse(routeParams().get('from')!);
    await settled();
    await page.mouse.move(plot.x + plot.width / 2, y);
    await page.mouse.wheel(0, -100);
    await page.waitForURL((u) => Date.parse(u.searchParams.get('to')!) - Date.parse(u.searchParams.get('from')!) < before);
  });

  it('by touch: a two-finger pinch zooms, a one-finger swipe pans', async () => {
    const touch = await newContext(browser, { hasTouch: true, isMobile: false });
    const p = await touch.newPage();
    await signInWithToken(p, t.server.url, t.adminToken, `/ui/?${timelineQuery('team-a', 'web')}`);
    await p.locator('.chart').waitFor();
    const box = await stablePlotBox(p);
    const y = box.y + 10;
    const mid = box.x + box.width / 2;
    const cdp = await touch.newCDPSession(p);
    const touches = async (type: 'touchStart' | 'touchMove' | 'touchEnd', xs: number[]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : xs.map((x, id) => ({ x, y, id })) });
    const params = () => new URL(p.url()).searchParams;
    const span = () => Date.parse(params().get('to')!) - Date.parse(params().get('from')!);
    // Fingers 100 px apart moving to 200 px apart: twice as close, around the middle.
    await touches('touchStart', [mid - 50, mid + 50]);
    for (const d of [60, 70, 80, 90, 100]) await touches('touchMove', [mid - d, mid + d]);
    await touches('touchEnd', []);
    await p.waitForURL((u) => u.searchParams.get('from') !== FROM);
    expect(Math.abs(span() - 30 * MIN)).toBeLessThan(MIN);
    expect(Math.abs((Date.parse(params().get('from')!) + Date.parse(params().get('to')!)) / 2 - (START + 30 * MIN))).toBeLessThan(MIN);
    await p.waitForFunction(() => (globalThis as any).document.querySelector('.chart')?.getAttribute('data-from') === new URL((globalThis as any).document.location.href).searchParams.get('from'));
    const pinchedFrom = Date.parse(params().get('from')!);
    // One finger from the middle to the right by a quarter: the window moves earlier by a quarter.
    await touches('touchStart', [mid]);
    for (const step of [1, 2, 3, 4]) await touches('touchMove', [mid + (step * box.width) / 16]);
    await touches('touchEnd', []);
    await p.waitForURL((u) => Date.parse(u.searchParams.get('from')!) !== pinchedFrom);
    expect(Math.abs(Date.parse(params().get('from')!) - (pinchedFrom - span() / 4))).toBeLessThan(MIN);
    await touch.close();
  });

  it('the "as of" cursor shows exactly what the time-travel API answers at that moment', async () => {
    await page.goto(url(timelineQuery('team-a', 'web')));
    await chart().focus();
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown']) await select(key);
    expect(await select('ArrowRight')).toBe('Ready: Ready False, reason Unhealthy, set by cloud-lb');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.has('at'));
    const cursor = routeParams().get('at')!;
    expect(cursor).toBe(iso(START + 15 * MIN));
    const shown = await page.getByTestId('as-of-object').textContent();
    const api = await t.client.get(`/api/v1/namespaces/team-a/services/web?asOf=${cursor}`);
    expect(api.status).toBe(200);
    expect(JSON.parse(shown!)).toEqual(api.json);
    expect(api.json.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'False', reason: 'Unhealthy' });
  });

  it('the Address view finds both holders of 203.0.113.7 and highlights their conflict', async () => {
    await page.goto(url('view=address&address=203.0.113.7'));
    await page.getByTestId('owners-table').waitFor();
    const rows = await page.locator('[data-testid=owners-table] tbody tr').allTextContents();
    expect(rows).toEqual([expect.stringMatching(/^team-a\/web.*metallb.*cloud-lb.*conflict$/), expect.stringMatching(/^team-b\/api.*metallb.*metallb.*conflict$/)]);
    expect(await page.locator('[data-testid=owners-table] tr.is-conflict').count()).toBe(2);
    expect(await page.locator('.conflict-note').textContent()).toContain('1 conflict(s)');
    expect(await laneTitles()).toEqual(['ingress team-a/web', 'ingress team-b/api', 'conflicts']);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'address');
  });

  it('the Flapping view ranks Services by condition transitions and links to their timeline', async () => {
    // From the navigation (no window in the link): the last hour is written into the URL.
    await page.getByRole('link', { name: 'Flapping' }).click();
    await page.waitForURL((u) => u.searchParams.has('from') && u.searchParams.has('to'));
    expect(Date.parse(routeParams().get('to')!) - Date.parse(routeParams().get('from')!)).toBe(60 * MIN);
    await page.getByTestId('flapping-table').waitFor();
    await page.goto(url(`view=flapping&from=${FROM}&to=${TO}`));
    await page.getByTestId('flapping-table').waitFor();
    const first = page.locator('[data-testid=flapping-table] tbody tr').first();
    expect(await first.textContent()).toMatch(/^1team-a\/web3/);
    const href = await first.getByRole('link').getAttribute('href');
    expect(new URLSearchParams(href!)).toEqual(new URLSearchParams(`view=timeline&ns=team-a&name=web&from=${FROM}&to=${TO}`));
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'flapping');
  });

  it('the Live view shows a new write as it happens', async () => {
    await page.goto(url('view=live'));
    await page.getByText('live', { exact: true }).waitFor();
    await page.locator('[data-testid=live-table] tbody tr').first().waitFor();
    t.clock.advance(MIN);
    const written = await putStatus(t.as('metallb'), 'team-b', 'api', { loadBalancer: { ingress: [{ ip: '198.51.100.9' }] } }, 'live-check/1.0');
    const row = page.locator('[data-testid=live-table] tbody tr', { hasText: 'live-check/1.0' });
    // Streamed, not polled: the row, with the address it set, is there within 2 s of the write.
    await row.waitFor({ timeout: 2_000 });
    expect(await row.locator('[data-field=what-changed]').textContent()).toBe('ingress none → 198.51.100.9');
    expect(await row.textContent()).toContain(written.metadata.resourceVersion);
    expect(await row.textContent()).toContain('team-b/api');
    // Paused, new lines are held (and counted), not shown; resuming shows them.
    await page.getByRole('button', { name: 'Pause' }).click();
    t.clock.advance(MIN);
    await putStatus(t.as('metallb'), 'team-b', 'api', { loadBalancer: { ingress: [{ ip: '198.51.100.10' }] } }, 'while-paused/1.0');
    await page.getByRole('button', { name: 'Resume (1 new)' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid=live-table] tbody tr', { hasText: 'while-paused/1.0' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Resume (1 new)' }).click();
    await page.locator('[data-testid=live-table] tbody tr', { hasText: 'while-paused/1.0' }).waitFor();
    expect(await page.locator('[data-testid=live-table] tbody tr', { hasText: 'while-paused/1.0' }).locator('[data-field=what-changed]').textContent()).toBe('ingress 198.51.100.9 → 198.51.100.10');
    // Filters narrow what is shown, and live in the URL.
    await page.getByLabel('User').fill('nobody');
    await page.getByLabel('User').press('Enter');
    await page.waitForURL(/user=nobody/);
    expect(await tableRows('live-table', 0)).toEqual([]);
    await page.getByLabel('User').fill('');
    await page.getByLabel('User').press('Enter');
    await page.locator('[data-testid=live-table] tbody tr', { hasText: 'while-paused/1.0' }).waitFor();
    // A controller's Event is a line of its own, a Warning marked by its icon and word.
    t.clock.advance(MIN);
    const api = (await t.client.get('/api/v1/namespaces/team-b/services/api')).json;
    await new LegacyEventRecorder(t.as('metallb'), 'metallb-controller', 'metallb-controller/v0.14').event(
      { namespace: 'team-b', name: 'api', uid: api.metadata.uid },
      'Warning',
      'AllocationFailed',
      'Failed to allocate IP for "team-b/api": no available IPs',
      t.clock.now().getTime(),
    );
    const event = page.getByTestId('event-row').filter({ hasText: 'AllocationFailed' });
    await event.waitFor({ timeout: 2_000 });
    expect(await event.getAttribute('class')).toBe('is-warning');
    // A Normal Event is a line like it, without the Warning's marks.
    const normal = page.getByTestId('event-row').filter({ hasText: 'EnsuredLoadBalancer' });
    expect([await normal.getAttribute('class'), await normal.locator('.event-warning').count()]).toEqual(['', 0]);
    // Each row keeps its own shading as new lines arrive above it.
    const shade = (row: typeof normal) =>
      row
        .locator('td')
        .first()
        .evaluate((td: any) => (globalThis as any).getComputedStyle(td).backgroundColor as string);
    expect(await shade(normal)).toBe('rgba(0, 0, 0, 0)');
    expect(await shade(event)).not.toBe('rgba(0, 0, 0, 0)');
    expect((await event.locator('[data-field=what-changed]').textContent())!.trim()).toBe('⚠ Warning AllocationFailedmetallb-controller: Failed to allocate IP for "team-b/api": no available IPs');
    expect(await event.textContent()).toContain('event created');
    expect(await event.getByRole('link').getAttribute('href')).toContain('view=timeline&ns=team-b&name=api');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'live');
  });

  it('hostile text in a user agent and an annotation is shown as text and runs nothing', async () => {
    const response = await page.goto(url(timelineQuery('team-c', 'odd', `&at=${iso(START + 47 * MIN)}`)));
    expect(response!.headers()['content-security-policy']).toContain("default-src 'self'");
    const agent = page.getByTestId('change-list').locator('[data-field=user-agent]', { hasText: '<script>' });
    await agent.waitFor();
    expect(await agent.textContent()).toBe(HOSTILE_AGENT);
    await page.getByTestId('as-of-object').waitFor();
    expect(await page.getByTestId('as-of-object').textContent()).toContain(JSON.stringify(HOSTILE_NOTE).slice(1, -1));
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  it('works behind a path prefix: every URL the page uses stays under it', async () => {
    // A reverse proxy serving svctrail under /svctrail/, played by the browser context itself.
    const prefixed = await newContext(browser);
    const seen: string[] = [];
    await prefixed.route(/^https:\/\/127\.0\.0\.1:\d+\/(?!svctrail\/)/, (route) => route.abort());
    await prefixed.route(`${t.server.url}/svctrail/**`, async (route) => {
      seen.push(new URL(route.request().url()).pathname);
      const response = await route.fetch({ url: route.request().url().replace('/svctrail/', '/') });
      await route.fulfill({ response });
    });
    const p = await prefixed.newPage();
    await signInWithToken(p, t.server.url, t.adminToken, `/svctrail/ui/?${timelineQuery('team-a', 'web')}`);
    await p.locator('.chart').waitFor();
    await p.getByTestId('change-list').locator('li.change').first().waitFor();
    expect((await p.locator('.lane-title').allTextContents()).map((x) => x.trim())).toEqual(LANES);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.filter((path) => !path.startsWith('/svctrail/'))).toEqual([]);
    expect(seen).toEqual(expect.arrayContaining(['/svctrail/ui/', '/svctrail/ui/api/session', '/svctrail/api/v1/namespaces/team-a/services/web']));
    await prefixed.close();
  });

  it('dark mode follows prefers-color-scheme, and the manual switch overrides it', async () => {
    const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await page.goto(url(timelineQuery('team-a', 'web', `&at=${iso(START + 15 * MIN)}`)));
    await chart().waitFor();
    expect(await background()).toBe('rgb(13, 17, 23)');
    await screenshot(page, 'timeline-dark');
    await page.getByLabel('Theme').selectOption('light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.getByLabel('Theme').selectOption('system');
    expect(await background()).toBe('rgb(13, 17, 23)');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    await page.getByLabel('Theme').selectOption('dark');
    expect(await background()).toBe('rgb(13, 17, 23)');
    await page.getByLabel('Theme').selectOption('system');
  });
});
