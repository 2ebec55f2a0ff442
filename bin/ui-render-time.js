#!/usr/bin/env node
// `npm run ui:render-time`: how long the first timeline of a Service with 10,000 changes takes to
// render in headless chromium (navigation start -> lanes drawn), against the real server. Seeds
// .bench/ui-render-time/ once (10,000 status writes over HTTPS: Ready flapping on every write, a
// new ingress IP every 10th, a label edit every 100th), then measures a cold first load and five
// warm ones and prints the times. A measurement, not a test: nothing here passes or fails.
//
// With --existing, nothing is seeded: the data directory (a copy of a bench dataset, say) is
// served as it is and the Service with the most condition transitions is measured over its
// whole history.
//
// usage: node bin/ui-render-time.js [--changes N] [--runs N] [--data-dir DIR] [--fresh | --existing]
/* global document -- the page.waitForFunction/evaluate callbacks run in the browser page, not in node */
const { spawn } = require('node:child_process');
const { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } = require('node:fs');
const https = require('node:https');
const { join } = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = join(__dirname, '..');
const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    'data-dir': { type: 'string', default: join(ROOT, '.bench', 'ui-render-time') },
    fresh: { type: 'boolean', default: false },
    existing: { type: 'boolean', default: false },
    chromium: { type: 'string', default: process.env.SVCTRAIL_CHROMIUM || '/usr/bin/chromium' },
  },
});
const CHANGES = Number(values.changes);
const RUNS = Number(values.runs);
const DATA_DIR = values['data-dir'];
const MARKER = join(DATA_DIR, 'ui-render-time.json');

function startServer() {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js'), '--port', '0', '--data-dir', DATA_DIR, '--sqlite-synchronous', 'NORMAL', '--log-level', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /serving (https:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function client(url, token, ca) {
  const agent = new https.Agent({ keepAlive: true, ca });
  return (method, path, body, contentType = 'application/json') =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(
        new URL(path, url),
        { method, agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'ui-render-time/1.0', ...(data ? { 'content-type': contentType } : {}) } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => (res.statusCode >= 300 ? reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`)) : resolve(JSON.parse(text || '{}'))));
        },
      );
      req.on('error', reject);
      req.end(data);
    });
}

async function seed(call) {
  const started = Date.now();
  const first = new Date().toISOString();
  await call('POST', '/api/v1/namespaces/perf/services', { metadata: { name: 'busy', labels: { app: 'busy' } }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
  for (let i = 1; i < CHANGES; i++) {
    if (i % 100 === 0) {
      await call('PATCH', '/api/v1/namespaces/perf/services/busy', { metadata: { labels: { app: 'busy', round: String(i) } } }, 'application/merge-patch+json');
    } else {
      const ip = `198.18.${Math.floor(i / 10 / 250) % 250}.${(Math.floor(i / 10) % 250) + 1}`;
      const status = {
        loadBalancer: { ingress: [{ ip }] },
        conditions: [{ type: 'Ready', status: i % 2 ? 'True' : 'False', reason: i % 2 ? 'Up' : 'Down', message: '', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }],
      };
      await call('PATCH', '/api/v1/namespaces/perf/services/busy/status', { status }, 'application/merge-patch+json');
    }
    if (i % 1000 === 0) process.stdout.write(`  seeded ${i} changes\n`);
  }
  const last = new Date().toISOString();
  process.stdout.write(`seeded ${CHANGES} changes in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { changes: CHANGES, from: first, to: last };
}

/** The Service with the most condition transitions, and the span from its first to its last write. */
async function busiest(call) {
  const top = (await call('GET', '/apis/history.svctrail.io/v1alpha1/transitionrankings?limit=1')).items[0];
  if (!top) throw new Error('no Service with condition transitions in this data directory');
  const { namespace, name } = top.service;
  const changes = `/apis/history.svctrail.io/v1alpha1/namespaces/${namespace}/services/${name}/changes`;
  const first = (await call('GET', `${changes}?limit=1`)).items[0];
  const head = (await call('GET', '/api/v1/services?limit=1')).metadata.resourceVersion;
  let last = first;
  // The last write: page through from the end of the log backwards in coarse steps.
  for (let since = Number(head); since > 0; since = Math.floor(since / 2)) {
    const page = await call('GET', `${changes}?sinceResourceVersion=${since}&limit=500`);
    if (page.items.length > 0) {
      let items = page.items;
      let token = page.metadata.continue;
      while (token) {
        const more = await call('GET', `${changes}?sinceResourceVersion=${since}&limit=500&continue=${encodeURIComponent(token)}`);
        items = more.items;
        token = more.metadata.continue;
      }
      last = items[items.length - 1];
      break;
    }
  }
  return { namespace, name, changes: null, from: first.time, to: last.time };
}

function medianOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'main.js')) || !existsSync(join(ROOT, 'ui', 'dist', 'index.html'))) throw new Error('run `npm run build` first');
  if (!existsSync(values.chromium)) throw new Error(`${values.chromium} is missing (apt-get install -y chromium)`);
  if (values.fresh) rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
  const server = await startServer();
  try {
    const token = readFileSync(join(DATA_DIR, 'tokens.csv'), 'utf8').split('\n')[0].split(',')[0];
    const ca = readFileSync(join(DATA_DIR, 'ca.crt'), 'utf8');
    const call = client(server.url, token, ca);
    let dataset = existsSync(MARKER) ? { namespace: 'perf', name: 'busy', ...JSON.parse(readFileSync(MARKER, 'utf8')) } : null;
    if (values.existing) dataset = await busiest(call);
    else if (!dataset || dataset.changes !== CHANGES) {
      dataset = { namespace: 'perf', name: 'busy', ...(await seed(call)) };
      writeFileSync(MARKER, JSON.stringify(dataset));
    }
    const { namespace, name } = dataset;
    const counted = await call('GET', `/apis/history.svctrail.io/v1alpha1/namespaces/${namespace}/services/${name}/activitybuckets?since=${dataset.from}&until=${dataset.to}&buckets=1`);
    // Pad the window a little so the first and last writes are inside it.
    const from = new Date(Date.parse(dataset.from) - 60_000).toISOString();
    const to = new Date(Date.parse(dataset.to) + 60_000).toISOString();
    const link = `${server.url}/ui/?view=timeline&ns=${encodeURIComponent(namespace)}&name=${encodeURIComponent(name)}&from=${from}&to=${to}`;

    const { chromium } = require('playwright-core');
    const browser = await chromium.launch({
      executablePath: values.chromium,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 860 } });
      const signIn = await context.request.post(`${server.url}/ui/api/session`, { headers: { 'content-type': 'application/json', origin: server.url }, data: { token } });
      if (signIn.status() !== 201) throw new Error(`sign-in answered ${signIn.status()}`);
      const times = [];
      const parts = [];
      for (let run = 0; run <= RUNS; run++) {
        const page = await context.newPage();
        await page.goto(link);
        await page.waitForFunction(() => document.querySelector('[data-testid=load-time]') && document.documentElement.dataset.timelineDrawnAt, null, { timeout: 60_000 });
        const drawnAt = await page.evaluate(() => Number(document.documentElement.dataset.timelineDrawnAt));
        const fetched = await page.evaluate(() => Number(/\d+/.exec(document.querySelector('[data-testid=load-time]').textContent)[0]));
        const scriptReady = await page.evaluate(() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd);
        times.push(drawnAt);
        parts.push({ scriptReady, fetched });
        await page.close();
      }
      const [cold, ...warm] = times;
      warm.sort((a, b) => a - b);
      const median = warm[Math.floor(warm.length / 2)];
      const total = counted.items[0];
      process.stdout.write(
        `Service ${namespace}/${name}: ${total.changes} changes, ${total.conditionTransitions} condition transitions, ${total.ingressSets} ingress assignments in the window\n` +
          `first timeline render (navigation start -> lanes drawn), headless chromium ${browser.version()}:\n` +
          `  cold (empty cache): ${cold.toFixed(0)} ms\n` +
          `  warm, median of ${warm.length}: ${median.toFixed(0)} ms (min ${warm[0].toFixed(0)}, max ${warm[warm.length - 1].toFixed(0)})\n` +
          `  of which, median: page and script ready ${medianOf(parts.slice(1).map((p) => p.scriptReady)).toFixed(0)} ms, history API calls ${medianOf(parts.slice(1).map((p) => p.fetched)).toFixed(0)} ms\n`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    server.child.kill('SIGTERM');
  }
}

main().catch((error) => {
  process.stderr.write(`ui-render-time: ${error.stack || error}\n`);
  process.exit(1);
});
