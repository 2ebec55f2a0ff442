// Browser tests' harness: Debian's chromium driven by playwright-core (never a downloaded
// browser), the UI built when its sources changed, and small page helpers. Without
// /usr/bin/chromium the tests skip with a printed reason, or fail when CI is set.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SVCTRAIL_CHROMIUM ?? '/usr/bin/chromium';
export const ROOT = join(__dirname, '..', '..');
export const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** True when the browser is there; prints why not (or throws under CI). */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const reason = `browser tests need ${CHROMIUM} (apt-get install -y chromium)`;
  if (process.env.CI) throw new Error(`${reason}; CI is set, so this is a failure`);
  process.stdout.write(`skipping browser tests: ${reason}\n`);
  return false;
}

/** `describe` when the browser is available, else `describe.skip`. */
export const describeInBrowser: jest.Describe = browserAvailable() ? describe : describe.skip;

export function buildUi(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(join(ROOT, 'bin', 'build-ui.js')).buildUiIfStale(ROOT);
}

export async function launch(): Promise<Browser> {
  // playwright gives every launch a fresh temporary profile (user-data-dir).
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * Closes the browser, and if it does not finish within `ms` kills the chromium processes this
 * test process started: a hung close must fail one hook, never keep jest (and CI) running.
 */
export async function closeBrowser(browser: Browser | undefined, ms = 15_000): Promise<void> {
  if (!browser) return;
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([browser.close().then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]).finally(() => clearTimeout(timer));
  if (closed) return;
  process.stdout.write(`chromium did not close within ${ms} ms; killing its processes\n`);
  try {
    execFileSync('pkill', ['-KILL', '-P', String(process.pid), '-f', 'chromium']);
  } catch {
    // pkill exits 1 when nothing matched: the browser went away meanwhile.
  }
}

export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  // The server's certificate is signed by the data directory's own CA.
  return browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 860 }, ...options });
}

export async function signInWithToken(page: Page, baseUrl: string, token: string, path = '/ui/'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('Bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByTestId('signed-in-user').waitFor();
}

/** axe-core's serious and critical violations on the page, as short strings. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the debugging protocol, which the page's CSP does not govern.
  await page.evaluate(source);
  const results = await page.evaluate<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>(`axe.run(document, { resultTypes: ['violations'] })`);
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The viewport as docs/screenshots/NAME.png, or only `element` when given. */
export async function screenshot(page: Page, name: string, element?: Locator): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The one thing on screen that differs run to run: a committed screenshot changes only when the UI does.
  await page.evaluate(`document.querySelectorAll('[data-testid="load-time"]').forEach((e) => { e.textContent = 'loaded'; })`);
  const path = join(SCREENSHOTS, `${name}.png`);
  await (element ? element.screenshot({ path }) : page.screenshot({ path, fullPage: false }));
}
