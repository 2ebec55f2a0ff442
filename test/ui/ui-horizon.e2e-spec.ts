// The compaction horizon in the timeline (issue 26), in Debian's chromium against a real server
// whose history was compacted halfway: the chart shades the time before the horizon ("facts
// only"), a note says what that means, the lanes before it are still drawn from the facts (the
// window's starting state included, which no object holds any more), and the "as of" view below
// the horizon says why there is no object while above it the Service shows as before.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HISTORY_COMPACTOR } from '../../src/store/ports/history-compaction';
import type { HistoryCompactor } from '../../src/store/ports/history-compaction';
import { type HistoryTestServer, putStatus, ready, START, startHistoryTestServer } from '../history/history-test-server';
import { buildUi, closeBrowser, describeInBrowser, launch, newContext, screenshot, seriousAccessibilityViolations, signInWithToken } from './ui-browser';

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Writes every ten minutes from START; the horizon is the write at 40 minutes. */
const writeAt = (i: number) => START + i * 10 * MIN;
const HORIZON_AT = writeAt(4);

describeInBrowser('the compaction horizon in the timeline', () => {
  let t: HistoryTestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let horizon = 0;
  const timeline = (query: string) => `${t.server.url}/ui/?view=timeline&ns=demo&name=web&from=${iso(START - 5 * MIN)}&to=${iso(writeAt(8))}${query}`;

  beforeAll(async () => {
    buildUi();
    t = await startHistoryTestServer([{ name: 'metallb' }]);
    t.clock.advance(writeAt(0) - t.clock.now().getTime());
    await t.client.post('/api/v1/namespaces/demo/services', { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    for (let i = 1; i <= 7; i++) {
      t.clock.advance(writeAt(i) - t.clock.now().getTime());
      const written = await putStatus(
        t.as('metallb'),
        'demo',
        'web',
        { loadBalancer: { ingress: [{ ip: `203.0.113.${10 + (i % 3)}` }] }, conditions: [ready(i % 2 ? 'True' : 'False', 'Probe', writeAt(i))] },
        'metallb-controller/v0.14',
      );
      if (i === 4) horizon = Number(written.metadata.resourceVersion);
    }
    const outcome = await t.server.app.get<HistoryCompactor>(HISTORY_COMPACTOR).compact({ point: { kind: 'resourceVersion', resourceVersion: horizon }, actor: 'admin' });
    expect(outcome.kind).toBe('compacted');
    browser = await launch();
    context = await newContext(browser, { viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    await signInWithToken(page, t.server.url, t.adminToken);
  });

  afterAll(async () => {
    await closeBrowser(browser);
    await t?.stop();
  });

  it('shades the time before the horizon, says what is kept there, and still draws the lanes from the facts', async () => {
    await page.goto(timeline(''));
    const shade = page.getByTestId('horizon');
    await shade.waitFor();
    expect(await shade.getAttribute('title')).toMatch(/^Compacted before .*: facts only$/);
    expect(await shade.textContent()).toBe('facts only');
    const note = page.getByTestId('horizon-note');
    expect(await note.textContent()).toContain(`(resourceVersion ${horizon}) is compacted`);
    // The shade ends where the horizon is on the time axis: 45 of the window's 85 minutes.
    const plot = (await page.locator('.chart-plot').boundingBox())!;
    const box = (await shade.boundingBox())!;
    expect(box.width / plot.width).toBeCloseTo(45 / 85, 1);
    // Every lane of the window, the part before the horizon included; no error for the window's
    // start, where no object is kept.
    await page.waitForFunction(() => ((globalThis as any).document.querySelector('.chart-plot canvas')?.drawnSegments?.length ?? 0) > 0);
    const titles = await page.locator('.lane-title').allTextContents();
    expect(titles.map((s) => s.trim())).toEqual(expect.arrayContaining(['ingress 203.0.113.11', 'ingress 203.0.113.12', 'ingress 203.0.113.10', 'condition Ready']));
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByTestId('change-list').locator('li.change').nth(7).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'timeline-horizon');
  });

  it('the "as of" view below the horizon says why there is no object; at and after it the Service shows', async () => {
    await page.goto(timeline(`&at=${iso(writeAt(2))}`));
    const status = page.locator('.as-of [role=status]');
    await status.waitFor();
    expect(await status.textContent()).toContain(`before the compaction horizon (too old resource version: `);
    expect(await status.textContent()).toContain(`(${horizon})`);
    expect(await page.getByTestId('as-of-object').count()).toBe(0);

    await page.goto(timeline(`&at=${iso(HORIZON_AT + MIN)}`));
    const object = page.getByTestId('as-of-object');
    await object.waitFor();
    expect(JSON.parse((await object.textContent())!).metadata.resourceVersion).toBe(String(horizon));
  });

  it('the Live view shows the compaction among the changes, after the write that was newest when it began', async () => {
    await page.goto(`${t.server.url}/ui/?view=live`);
    const row = page.getByTestId('compaction-row');
    await row.waitFor();
    expect((await row.locator('[data-field=what-changed]').textContent())!.trim()).toMatch(new RegExp(`^objects before .* \\(rv ${horizon}\\) removed: \\d+ of \\d+ writes; facts kept$`));
    expect(await row.locator('td').nth(6).textContent()).toBe('admin');
    // Newest first: the compaction above the write it follows.
    const rows = page.getByTestId('live-table').locator('tbody tr');
    expect(await rows.nth(0).getAttribute('data-testid')).toBe('compaction-row');
  });
});
