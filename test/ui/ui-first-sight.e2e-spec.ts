// The timeline at first sight (issue 29), in Debian's chromium at 1400×900 against a real server
// with seeded history (a hand-moved clock; the browser's own clock set three days after the
// oldest Service's history): a Service opened from the Services list, or by a link without a
// window, shows its whole recorded life — five seconds or three days old — with every interval
// wide enough to see; a long history shows its last changes; the Address view fits its holders;
// an explicit window always wins; each replaced value reads old → new. Writes the README's
// screenshots of a fitted timeline and of a change card's diff.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type HistoryTestServer, putStatus, ready, START, startHistoryTestServer } from '../history/history-test-server';
import { buildUi, closeBrowser, describeInBrowser, launch, newContext, screenshot, seriousAccessibilityViolations, signInWithToken } from './ui-browser';

const LB = { type: 'LoadBalancer', ports: [{ port: 80 }] };
const SECOND = 1000;
const MIN = 60 * SECOND;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
/** "A few pixels": an interval narrower than this is one a reader does not see. */
const VISIBLE_PX = 5;

// demo/old: a history of 100 minutes, three days before the browser's clock.
const OLD = { created: START + MIN, last: START + 100 * MIN };
// demo/busy: 60 writes 30 minutes apart, more than the 50 a fitted window shows.
const BUSY = { created: START + 3 * HOUR, every: 30 * MIN, writes: 60 };
const busyAt = (i: number) => BUSY.created + i * BUSY.every;
// demo/blink: a history of five seconds.
const BLINK = START + 2 * DAY;
// demo/gone: created, given an address and deleted within 20 seconds.
const GONE = START + 2 * DAY + HOUR;
const BROWSER_NOW = OLD.last + 3 * DAY;
const LONG_NOTE = `<img src=x onerror="window.__pwned=1">${'a long annotation value '.repeat(20)}`;

describeInBrowser('the timeline at first sight', () => {
  let t: HistoryTestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const at = async (ms: number, write: () => Promise<unknown>) => {
    t.clock.advance(ms - t.clock.now().getTime());
    await write();
  };
  const url = (query: string) => `${t.server.url}/ui/?${query}`;
  const params = () => new URL(page.url()).searchParams;
  const windowOf = () => ({ from: Date.parse(params().get('from')!), to: Date.parse(params().get('to')!) });
  /** Opens a Service's timeline by a link without a window; the window it was fitted to. */
  const openFitted = async (name: string) => {
    await page.goto(url(`view=timeline&ns=demo&name=${name}`));
    await page.waitForURL((u) => u.searchParams.has('from'));
    return windowOf();
  };

  beforeAll(async () => {
    buildUi();
    t = await startHistoryTestServer([{ name: 'metallb' }]);
    const admin = t.as('admin');
    const metallb = t.as('metallb');
    const status = (name: string, s: object) => putStatus(metallb, 'demo', name, s, 'metallb-controller/v0.14');
    const lb = (ip: string) => ({ ingress: [{ ip }] });
    const create = (name: string) => admin.post('/api/v1/namespaces/demo/services', { metadata: { name }, spec: LB });

    await at(OLD.created, () => create('old'));
    await at(START + 10 * MIN, () => status('old', { loadBalancer: lb('203.0.113.20'), conditions: [ready('True', 'Serving', START + 10 * MIN)] }));
    await at(START + 40 * MIN, () => status('old', { loadBalancer: lb('203.0.113.20'), conditions: [ready('False', 'Unhealthy', START + 40 * MIN)] }));
    await at(START + 70 * MIN, () => status('old', { loadBalancer: lb('203.0.113.21'), conditions: [ready('True', 'Serving', START + 70 * MIN)] }));
    await at(OLD.last, async () => {
      const current = (await admin.get('/api/v1/namespaces/demo/services/old')).json;
      await admin.put('/api/v1/namespaces/demo/services/old', { ...current, metadata: { ...current.metadata, annotations: { note: LONG_NOTE } } });
    });

    await at(busyAt(0), () => create('busy'));
    for (let i = 1; i < BUSY.writes; i++) {
      await at(busyAt(i), () => status('busy', { loadBalancer: lb(`198.51.100.${Math.floor(i / 10) + 1}`), conditions: [ready(i % 2 ? 'False' : 'True', 'Probe', busyAt(i))] }));
    }

    await at(BLINK, () => create('blink'));
    await at(BLINK + 1 * SECOND, () => status('blink', { loadBalancer: lb('203.0.113.30'), conditions: [ready('True', 'Serving', BLINK + SECOND)] }));
    await at(BLINK + 2 * SECOND, () => status('blink', { loadBalancer: lb('203.0.113.30'), conditions: [ready('False', 'Unhealthy', BLINK + 2 * SECOND)] }));
    await at(BLINK + 3 * SECOND, () => status('blink', { loadBalancer: lb('203.0.113.31'), conditions: [ready('False', 'Unhealthy', BLINK + 2 * SECOND)] }));
    await at(BLINK + 4 * SECOND, () => status('blink', { loadBalancer: lb('203.0.113.31'), conditions: [ready('True', 'Serving', BLINK + 4 * SECOND)] }));
    await at(BLINK + 5 * SECOND, () => status('blink', { loadBalancer: lb('203.0.113.31'), conditions: [ready('False', 'Unhealthy', BLINK + 5 * SECOND)] }));

    await at(GONE, () => create('gone'));
    await at(GONE + 10 * SECOND, () => status('gone', { loadBalancer: lb('203.0.113.40') }));
    await at(GONE + 20 * SECOND, () => admin.delete('/api/v1/namespaces/demo/services/gone'));

    browser = await launch();
    context = await newContext(browser, { viewport: { width: 1400, height: 900 } });
    // The browser's clock, three days after demo/old's last change: its old 24-hour default
    // window would have shown none of that history.
    await context.clock.setFixedTime(new Date(BROWSER_NOW));
    page = await context.newPage();
  });

  afterAll(async () => {
    await closeBrowser(browser);
    await t?.stop();
  });

  /** Waits until the chart shows the URL's window with its lanes drawn, then every interval as drawn. */
  const drawnIntervals = async (on: Page = page) => {
    await on.waitForFunction(() => {
      const d = (globalThis as any).document;
      const canvas = d.querySelector('.chart-plot canvas');
      return d.querySelector('.chart')?.getAttribute('data-from') === new URL(d.location.href).searchParams.get('from') && (canvas?.drawnSegments?.length ?? 0) > 0;
    });
    return on.evaluate(() => {
      const d = (globalThis as any).document;
      const canvas = d.querySelector('.chart-plot canvas');
      const titles = [...d.querySelectorAll('.lane-title')].map((e: any) => e.textContent.trim());
      const ratio = canvas.width / canvas.clientWidth;
      const ctx = canvas.getContext('2d');
      return (canvas.drawnSegments as { lane: number; kind: string; x: number; width: number }[])
        .filter((s) => s.kind !== 'changes')
        .map((s) => ({
          lane: titles[s.lane] as string,
          width: s.width,
          // Painted, not only computed: the pixel in the middle of the bar's top edge (a fill, or the
          // outline of a hatched or dotted bar).
          painted: ctx.getImageData(Math.floor((s.x + s.width / 2) * ratio), Math.floor((s.lane * 30 + 4.5) * ratio), 1, 1).data[3] > 0,
        }));
    });
  };

  it('a Service opened from the Services list shows its whole history of three days ago, every interval visible', async () => {
    await signInWithToken(page, t.server.url, t.adminToken, '/ui/?view=services');
    await page.getByTestId('services-table').waitFor();
    await page.getByRole('link', { name: 'old', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('view') === 'timeline' && u.searchParams.has('from') && u.searchParams.has('to'));
    const w = windowOf();
    expect(w.from).toBeLessThanOrEqual(OLD.created);
    expect(w.to).toBeGreaterThanOrEqual(OLD.last);
    // The history and a little room, not the 24 hours before the browser's clock.
    expect(w.to - w.from).toBeLessThan(2 * HOUR);
    expect(BROWSER_NOW - w.to).toBeGreaterThan(2 * DAY);
    // The window's fields show the fitted window.
    expect(await page.getByRole('textbox', { name: 'From' }).inputValue()).toBe(iso(w.from));
    expect(await page.getByRole('textbox', { name: 'To' }).inputValue()).toBe(iso(w.to));

    const intervals = await drawnIntervals();
    expect(new Set(intervals.map((i) => i.lane))).toEqual(new Set(['ingress 203.0.113.20', 'ingress 203.0.113.21', 'condition Ready']));
    expect(intervals.length).toBe(5); // two addresses; Ready True, False, True
    for (const i of intervals) expect(i).toEqual({ lane: i.lane, width: expect.any(Number), painted: true });
    expect(Math.min(...intervals.map((i) => i.width))).toBeGreaterThan(VISIBLE_PX);
    await page.getByTestId('change-list').locator('li.change').nth(4).waitFor();
    await screenshot(page, 'timeline-fitted');
  });

  it('each replaced value reads old → new in its change card, long values folded with a toggle, hostile text as text', async () => {
    const changes = page.getByTestId('change-list');
    const line = (path: string) => changes.locator('.diff li', { has: page.locator('.mono', { hasText: new RegExp(`^${path.replace(/\//g, '\\/')}$`) }) });
    const unhealthy = changes.locator('li.change').nth(2);
    expect(await unhealthy.locator('[data-field=user]').textContent()).toBe('metallb');
    const status = unhealthy.locator('.diff li', { hasText: '/status/conditions/0/status' });
    await status.locator('del').waitFor();
    expect(await status.locator('del').textContent()).toBe('"True"');
    expect(await status.locator('ins').textContent()).toBe('"False"');
    const moved = line('/status/loadBalancer/ingress/0/ip');
    expect(await moved.count()).toBe(1);
    expect((await moved.textContent())!.replace(/\s+/g, ' ')).toBe('~ /status/loadBalancer/ingress/0/ip "203.0.113.20" → "203.0.113.21"');
    await screenshot(page, 'timeline-diff', changes.locator('li.change').nth(3));
    // An annotation added: marked as an addition, its long value folded until asked for.
    const note = changes.locator('li.change').nth(4).locator('.diff li.diff-add');
    expect(await note.locator('.sign').textContent()).toBe('+');
    const toggle = note.getByRole('button');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const whole = JSON.stringify({ note: LONG_NOTE });
    expect((await note.locator('ins').textContent())!.length).toBeLessThan(whole.length);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await note.locator('ins').textContent()).toBe(whole);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  it('a history of five seconds opens on a window of minutes with every interval visible', async () => {
    const w = await openFitted('blink');
    expect(w.from).toBeLessThanOrEqual(BLINK);
    expect(w.to).toBeGreaterThanOrEqual(BLINK + 5 * SECOND);
    expect(w.to - w.from).toBeGreaterThanOrEqual(2 * MIN);
    expect(w.to - w.from).toBeLessThanOrEqual(3 * MIN);
    const intervals = await drawnIntervals();
    // 203.0.113.30, 203.0.113.31; Ready True, False, True, False.
    expect(intervals.length).toBe(6);
    expect(intervals.every((i) => i.painted)).toBe(true);
    expect(Math.min(...intervals.map((i) => i.width))).toBeGreaterThan(VISIBLE_PX);
  });

  it('a long history opens on the span of its last 50 changes', async () => {
    const w = await openFitted('busy');
    expect(w.from).toBeGreaterThan(busyAt(0));
    expect(w.from).toBeLessThanOrEqual(busyAt(BUSY.writes - 50));
    expect(w.to).toBeGreaterThanOrEqual(busyAt(BUSY.writes - 1));
    // Each write's interval, 30 minutes of a window of about a day, is drawn one by one.
    const intervals = await drawnIntervals();
    expect(intervals.filter((i) => i.lane === 'condition Ready').length).toBeGreaterThanOrEqual(50);
  });

  it('a deleted Service opens on the span from its creation to its deletion', async () => {
    const w = await openFitted('gone');
    expect(w.from).toBeLessThanOrEqual(GONE);
    expect(w.to).toBeGreaterThanOrEqual(GONE + 20 * SECOND);
    expect(w.to - w.from).toBeLessThanOrEqual(3 * MIN);
    await page.getByTestId('change-list').locator('li.change').nth(2).waitFor();
  });

  it('an explicit window always wins, and the window buttons still count back from now', async () => {
    const from = iso(START);
    const to = iso(START + DAY);
    await page.goto(url(`view=timeline&ns=demo&name=old&from=${from}&to=${to}`));
    await drawnIntervals();
    expect([params().get('from'), params().get('to')]).toEqual([from, to]);
    expect(await page.locator('.chart').getAttribute('data-to')).toBe(to);
    await page.getByRole('button', { name: 'Last 24h' }).click();
    await page.waitForURL((u) => u.searchParams.get('from') !== from);
    expect(windowOf()).toEqual({ from: BROWSER_NOW - DAY, to: BROWSER_NOW });
  });

  it('the Address view fits its window to the recorded holders and shows it in its fields', async () => {
    await page.goto(url('view=address&address=203.0.113.20'));
    await page.getByTestId('owners-table').waitFor();
    const from = Date.parse(await page.getByRole('textbox', { name: 'From' }).inputValue());
    const to = Date.parse(await page.getByRole('textbox', { name: 'To' }).inputValue());
    expect(from).toBeLessThanOrEqual(START + 10 * MIN);
    expect(to).toBeGreaterThanOrEqual(START + 70 * MIN);
    expect(to - from).toBeLessThan(2 * HOUR);
    expect(await page.locator('.chart').getAttribute('data-from')).toBe(iso(from));
    const drawn = await page.evaluate(() => ((globalThis as any).document.querySelector('.chart-plot canvas').drawnSegments as { width: number }[]).map((s) => s.width));
    expect(drawn.length).toBe(1);
    expect(drawn[0]).toBeGreaterThan(VISIBLE_PX);
  });
});
