// `npm run bench:framework`: GET of one Service, LIST of a namespace and every page of a
// namespace's LIST (limit=10) at 10 connections, with each server's peak RSS, on svctrail, on
// framework-floor (the floor's statement on svctrail's fixed stack: NestJS on Fastify with its
// authentication and authorization hooks), on framework-floor-snapshot (its LISTs reading the
// head in a read transaction, as svctrail's do) and on the plain floor, each on a fresh copy of one
// dataset. It splits each gap to the floor into what the stack costs (framework-floor ÷ floor)
// and what svctrail's own code costs (svctrail ÷ framework-floor).
//
// The reads run on the four read targets up at once, then the writes — status PUTs, and the Event
// writes of client-go's recorder (a POST of a new Event, a strategic-merge PATCH of a repeat;
// bench/run/recorder-events.ts) — on the four write targets up at once, each on its own copy (each phase reports its servers' peak RSS: the
// write phase's puts svctrail's beside framework-floor-full's, the same storage work on the same
// stack); every case is interleaved across the targets and
// repeated (--repeat, default 2: in one order, then in the reverse order), so a drift of the
// shared machine weighs on every target alike; the table shows the median and min–max of the
// runs. Every copy is fsynced and dropped from the page
// cache before its server starts, and a phase whose 1-minute load average says other work shared
// the cores is marked [busy] (bench/README.md, "Measuring honestly").
//
// usage: node bench/dist/framework-compare.js [--dataset 1m|10k] [--duration SECONDS] [--repeat N]
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:https';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { ROOT } from './real';
import { syncAndDrop } from './run/page-cache';
import { onServingLine } from './run/serving-line';
import { type LoadWindow, BUSY_RULE, busyMark, loadWindows, underLoadWatch } from './run/load-average';
import { type EventAbout, RECORDER_USER_AGENT, STRATEGIC_MERGE_PATCH, eventPool, newEvent, repeatOf, seedEvents } from './run/recorder-events';
import { Rng } from './rng';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }>;

const { values } = parseArgs({ options: { dataset: { type: 'string', default: '1m' }, duration: { type: 'string', default: '8' }, repeat: { type: 'string', default: '2' } } });
const source = join(ROOT, 'bench', 'data', values.dataset);
const DURATION = Number(values.duration);
const REPEATS = Math.max(1, Number(values.repeat));
const log = (line: string) => process.stdout.write(`${line}\n`);

const FLOOR = join(ROOT, 'bench', 'dist', 'floor-server.js');
const TARGETS = [
  { name: 'svctrail', script: join(ROOT, 'dist', 'main.js'), extra: [] as string[] },
  { name: 'framework-floor', script: join(ROOT, 'bench', 'dist', 'framework-floor.js'), extra: [] },
  // The same, each LIST reading the log's head with its page in one read transaction (the work a
  // LIST must do when others may write meanwhile; the one above reads the head once at start).
  { name: 'framework-floor-snapshot', script: join(ROOT, 'bench', 'dist', 'framework-floor.js'), extra: ['--snapshot'] },
  { name: 'floor', script: FLOOR, extra: ['--drop-unused-indexes'] },
];
/** framework-floor-snapshot differs from framework-floor only in its LISTs. */
const runsCase = (target: string, i: number) => i > 0 || target !== 'framework-floor-snapshot';
/**
 * The status PUTs: svctrail; framework-floor-full (floor-full's storage work per write behind
 * svctrail's fixed stack, bench/nest-stack.ts); floor-full; and the floor.
 */
const WRITE_TARGETS = [
  { name: 'svctrail', script: join(ROOT, 'dist', 'main.js'), extra: [] as string[] },
  { name: 'framework-floor-full', script: FLOOR, extra: ['--variant', 'storage', '--stack', 'nest'] },
  { name: 'floor-full', script: FLOOR, extra: ['--variant', 'storage'] },
  { name: 'floor', script: FLOOR, extra: ['--drop-unused-indexes'] },
];
const WRITE_CONNECTIONS = [1, 16];
const IP_MARK = '0.0.0.0';

function copyDataset(): string {
  const dir = mkdtempSync(join(ROOT, 'bench', 'data', 'framework-'));
  for (const file of readdirSync(source)) if (!/-shm$|-wal$|\.lock$/.test(file)) copyFileSync(join(source, file), join(dir, file));
  syncAndDrop(dir, log);
  return dir;
}

function start(script: string, dataDir: string, extra: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, '--port', '0', '--data-dir', dataDir, ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${err}`)), 120_000);
    onServingLine(child.stdout, (url) => {
      clearTimeout(timer);
      resolve({ child, url });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 20_000) err += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}: ${err}`)));
  });
}

/** A target's server on its own copy of the dataset. */
interface Server {
  name: string;
  dir: string;
  child: ChildProcess;
  url: string;
}

/** Starts every target on a fresh copy, into `servers` as each comes up (so a failure still stops the earlier ones). */
async function startEach(targets: readonly { name: string; script: string; extra: string[] }[], servers: Server[]): Promise<void> {
  for (const target of targets) {
    const dir = copyDataset();
    const started = await start(target.script, dir, target.extra).catch((error: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    });
    servers.push({ name: target.name, dir, ...started });
  }
}

/** Stops every server and removes its copy. */
async function stopEach(servers: readonly Server[]): Promise<void> {
  for (const { child, dir } of servers) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

interface CaseResult {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

/** Walks every page of a namespace's LIST (limit=10, following continue) on `connections` loops; latency per page. */
async function walkPages(url: string, token: string, namespaces: string[], connections: number, seconds: number): Promise<CaseResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, rejectUnauthorized: false });
  const latencies: number[] = [];
  let bad = 0;
  const get = (path: string) =>
    new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
      const t0 = performance.now();
      const req = request(`${url}${path}`, { agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - t0 }));
      });
      req.on('error', reject);
      req.end();
    });
  const until = performance.now() + seconds * 1000;
  let n = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const base = `/api/v1/namespaces/${namespaces[n++ % namespaces.length]}/services?limit=10`;
      for (let path = base; ;) {
        const page = await get(path);
        if (page.status !== 200) {
          bad++;
          break;
        }
        latencies.push(page.ms);
        const next = (JSON.parse(page.body) as { metadata: { continue?: string } }).metadata.continue;
        if (!next) break;
        path = `${base}&continue=${encodeURIComponent(next)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2));
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), bad };
}

/** The median of several runs (failures summed), with the min–max of req/s and p99. */
function medianOf(list: CaseResult[]): CaseResult & { range: { rps: [number, number]; p99: [number, number] } } {
  const median = (k: 'rps' | 'p50' | 'p99') => {
    const v = list.map((r) => r[k]).sort((a, b) => a - b);
    const mid = v.length >> 1;
    return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  };
  const range = (k: 'rps' | 'p99'): [number, number] => [Math.min(...list.map((r) => r[k])), Math.max(...list.map((r) => r[k]))];
  return { rps: median('rps'), p50: median('p50'), p99: median('p99'), bad: list.reduce((a, r) => a + r.bad, 0), range: { rps: range('rps'), p99: range('p99') } };
}

const peakRssMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);

async function main(): Promise<void> {
  const token = readFileSync(join(source, 'tokens.csv'), 'utf8').split(',')[0];
  const db = new Database(join(source, 'svctrail.db'), { readonly: true });
  const names = db.prepare(`SELECT namespace, name FROM services WHERE namespace LIKE 'team-%' ORDER BY namespace, name LIMIT 500`).all() as { namespace: string; name: string }[];
  const namespaces = db.prepare(`SELECT DISTINCT namespace FROM services WHERE namespace LIKE 'team-%' ORDER BY namespace`).pluck().all() as string[];
  db.close();
  const gets = names.map((n) => ({ method: 'GET', path: `/api/v1/namespaces/${n.namespace}/services/${n.name}` }));
  const lists = namespaces.map((ns) => ({ method: 'GET', path: `/api/v1/namespaces/${ns}/services` }));
  const CASES = ['GET one Service', 'LIST a namespace', 'every page of a LIST of a namespace (limit=10)'] as const;
  // Every read target up at once, each on its own copy; per case, REPEATS runs on each, the
  // targets' order reversed on every other run (one run per target measured 20-30% apart between
  // two runs of the same code, and the order of the targets weighed on every ratio).
  const readServers: Server[] = [];
  const readRuns = new Map<string, CaseResult[][]>(TARGETS.map((t) => [t.name, CASES.map(() => [])]));
  const readBusy: (LoadWindow | undefined)[] = [];
  const peakRss = new Map<string, number>();
  try {
    await startEach(TARGETS, readServers);
    const readCase = async (i: number, url: string): Promise<CaseResult> => {
      if (i === 2) {
        await walkPages(url, token, namespaces, 10, 2);
        return walkPages(url, token, namespaces, 10, DURATION);
      }
      const options = { url, connections: 10, headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, tls: { rejectUnauthorized: false }, requests: i === 0 ? gets : lists };
      await autocannon({ ...options, duration: 2 });
      const r = await autocannon({ ...options, duration: DURATION });
      return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors };
    };
    for (const [i, title] of CASES.entries()) {
      const { window } = await underLoadWatch(`reads: ${title}`, async () => {
        for (let run = 0; run < REPEATS; run++) {
          for (const { name, url } of run % 2 ? [...readServers].reverse() : readServers) {
            if (!runsCase(name, i)) continue;
            const r = await readCase(i, url);
            readRuns.get(name)![i].push(r);
            log(`  ${name.padEnd(16)} ${title.padEnd(48)} run ${run + 1}/${REPEATS}: ${r.rps.toFixed(0)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  bad ${r.bad}`);
          }
        }
      });
      readBusy[i] = window.busy ? window : undefined;
    }
    for (const { name, child } of readServers) peakRss.set(name, peakRssMb(child.pid!));
  } finally {
    await stopEach(readServers);
  }
  // Status PUTs of many LoadBalancer Services, each with a new ingress IP, as the main bench's put-many.
  const eventObjects: EventAbout[] = [];
  const lbs = (() => {
    const read = new Database(join(source, 'svctrail.db'), { readonly: true });
    const all = read.prepare(`SELECT namespace, name, object FROM services WHERE namespace LIKE 'team-%' ORDER BY namespace, name`).all() as { namespace: string; name: string; object: string }[];
    read.close();
    return all.flatMap((r) => {
      const object = JSON.parse(r.object);
      if (object.spec.type !== 'LoadBalancer') return [];
      eventObjects.push({ ns: r.namespace, name: r.name, uid: object.metadata.uid, rv: object.metadata.resourceVersion });
      delete object.metadata.resourceVersion;
      object.status.loadBalancer = { ingress: [{ ip: IP_MARK, ipMode: 'VIP' }] };
      const [before, after] = JSON.stringify(object).split(IP_MARK);
      return [{ path: `/api/v1/namespaces/${r.namespace}/services/${r.name}/status`, before, after }];
    });
  })();
  let counter = 0;
  const putRequest = (req: Record<string, unknown>) => {
    const c = counter++;
    const s = lbs[c % lbs.length];
    const ip = `100.${100 + ((c >> 14) & 63)}.${100 + ((c >> 7) & 127)}.${100 + (c & 127)}`;
    return { ...req, method: 'PUT', path: s.path, body: s.before + ip + s.after, headers: { ...(req.headers as object), 'content-type': 'application/json' } };
  };
  // The Event writes, as the main bench's event-post and event-patch: a new Event about one of the
  // LoadBalancer Services, or a repeat of one of the pool's live Events (created on each server first).
  const rng = new Rng(42);
  const pool = eventPool(eventObjects, 4000);
  const recorder = (req: Record<string, unknown>, method: 'POST' | 'PATCH', contentType: string, spec: { path: string; body: string }) => ({
    ...req,
    method,
    ...spec,
    headers: { ...(req.headers as object), 'content-type': contentType, 'user-agent': RECORDER_USER_AGENT },
  });
  const WRITE_KINDS: { title: string; request: (req: Record<string, unknown>) => Record<string, unknown>; seed?: boolean }[] = [
    { title: 'PUT status, many Services', request: putRequest },
    { title: "POST Event (a new one, the recorder's), many Services", request: (req) => recorder(req, 'POST', 'application/json', newEvent(rng, eventObjects)) },
    { title: 'PATCH Event (a repeat), many Events', request: (req) => recorder(req, 'PATCH', STRATEGIC_MERGE_PATCH, repeatOf(rng, pool)), seed: true },
  ];
  const WRITE_CASES = WRITE_KINDS.flatMap((kind) => WRITE_CONNECTIONS.map((connections) => ({ ...kind, connections })));
  // Every write target up at once, each on its own copy; per connection count, REPEATS runs on each,
  // the targets' order reversed on every other run.
  const servers: Server[] = [];
  const runs = new Map<string, CaseResult[][]>(WRITE_TARGETS.map((t) => [t.name, WRITE_CASES.map(() => [])]));
  const writeBusy: (LoadWindow | undefined)[] = [];
  const writePeakRss = new Map<string, number>();
  try {
    await startEach(WRITE_TARGETS, servers);
    let seeded = false;
    for (const [i, { title, connections, request: setupRequest, seed }] of WRITE_CASES.entries()) {
      if (seed && !seeded) {
        // The live Events the repeats patch, on every server, through its own API.
        for (const { name, url } of servers) {
          await seedEvents(url, token, pool);
          log(`  ${name.padEnd(20)} ${pool.events.length} live Events created for the repeats`);
        }
        seeded = true;
      }
      const { window } = await underLoadWatch(`${title}, ${connections} conn`, async () => {
        for (let run = 0; run < REPEATS; run++) {
          for (const { name, url } of run % 2 ? [...servers].reverse() : servers) {
            const options = {
              url,
              connections,
              headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
              tls: { rejectUnauthorized: false },
              requests: [{ setupRequest }],
            };
            await autocannon({ ...options, duration: 2 });
            // Settled: the checkpoint of the warm-up's writes (and of the previous target's run) is not this case's cost.
            await new Promise((resolve) => setTimeout(resolve, 3000));
            const r = await autocannon({ ...options, duration: DURATION });
            runs.get(name)![i].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors });
            log(
              `  ${name.padEnd(20)} ${title}, ${connections} conn, run ${run + 1}/${REPEATS}: ${r.requests.average.toFixed(0)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  bad ${r.non2xx + r.errors}`,
            );
          }
        }
      });
      writeBusy[i] = window.busy ? window : undefined;
    }
    for (const { name, child } of servers) writePeakRss.set(name, peakRssMb(child.pid!));
  } finally {
    await stopEach(servers);
  }
  const writeRows = WRITE_TARGETS.map((t) => ({ target: t.name, results: runs.get(t.name)!.map(medianOf) }));
  const w = Object.fromEntries(writeRows.map((r) => [r.target, r.results]));

  const reads = Object.fromEntries(TARGETS.map((t) => [t.name, readRuns.get(t.name)!.map((list, i) => (runsCase(t.name, i) ? medianOf(list) : undefined))]));
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const rps = (r: ReturnType<typeof medianOf>) => `${r.rps.toFixed(0)} (${r.range.rps.map((v) => v.toFixed(0)).join('–')})`;
  // A median of two p99s is their mean: rounded, not 4.1850000000000005.
  const ms = (v: number) => String(Number(v.toFixed(2)));
  const p99 = (r: ReturnType<typeof medianOf>) => `${ms(r.p99)} (${r.range.p99.map(ms).join('–')})`;
  const rss = (t: string) => peakRss.get(t)!;
  const wrss = (t: string) => writePeakRss.get(t)!;
  const table = [
    `10 connections each, ${values.dataset} dataset, ${DURATION} s per case; the four servers up at once, each on a fresh copy, the median of ${REPEATS} runs each interleaved across them (min–max in brackets; ratios of the medians); framework-floor-snapshot is framework-floor reading each LIST's head and page in one read transaction`,
    '',
    "| case | svctrail | framework-floor | framework-floor-snapshot | floor | svctrail ÷ floor | framework-floor ÷ floor (the stack) | svctrail ÷ framework-floor (svctrail's code) | svctrail ÷ framework-floor-snapshot |",
    '|---|---|---|---|---|---|---|---|---|',
    ...CASES.flatMap((title, i) => {
      const [s, f, p] = ['svctrail', 'framework-floor', 'floor'].map((t) => reads[t][i]!);
      const fs = reads['framework-floor-snapshot'][i];
      return [
        `| ${title}${busyMark(readBusy[i])}: req/s | ${rps(s)} | ${rps(f)} | ${fs ? rps(fs) : '–'} | ${rps(p)} | ${ratio(s.rps, p.rps)} | ${ratio(f.rps, p.rps)} | ${ratio(s.rps, f.rps)} | ${fs ? ratio(s.rps, fs.rps) : '–'} |`,
        `| p99 ms | ${p99(s)} | ${p99(f)} | ${fs ? p99(fs) : '–'} | ${p99(p)} | ${ratio(s.p99, p.p99)} | ${ratio(f.p99, p.p99)} | ${ratio(s.p99, f.p99)} | ${fs ? ratio(s.p99, fs.p99) : '–'} |`,
      ];
    }),
    `| peak RSS MB (the read cases) | ${rss('svctrail')} | ${rss('framework-floor')} | ${rss('framework-floor-snapshot')} | ${rss('floor')} | ${ratio(rss('svctrail'), rss('floor'))} | ${ratio(rss('framework-floor'), rss('floor'))} | ${ratio(rss('svctrail'), rss('framework-floor'))} | ${ratio(rss('svctrail'), rss('framework-floor-snapshot'))} |`,
    '',
    `Status PUTs of many LoadBalancer Services (a new ingress IP each), then the Event writes of client-go's recorder (a new Event about one of them; a strategic-merge repeat of one of ${pool.events.length} live Events), settled, ${DURATION} s per case, the four servers up at once, the median of ${REPEATS} runs each interleaved across them (min–max in brackets; ratios of the medians); framework-floor-full is floor-full's storage work per write behind svctrail's fixed stack (NestJS on Fastify, its authentication and authorization hooks)`,
    '',
    "| case | svctrail | framework-floor-full | floor-full | floor | svctrail ÷ floor | framework-floor-full ÷ floor-full (the stack) | svctrail ÷ framework-floor-full (svctrail's code) |",
    '|---|---|---|---|---|---|---|---|',
    ...WRITE_CASES.flatMap(({ title, connections }, i) => {
      const [s, f, ff, p] = ['svctrail', 'framework-floor-full', 'floor-full', 'floor'].map((t) => w[t][i]);
      return [
        `| ${title}, ${connections} conn${busyMark(writeBusy[i])}: req/s | ${rps(s)} | ${rps(f)} | ${rps(ff)} | ${rps(p)} | ${ratio(s.rps, p.rps)} | ${ratio(f.rps, ff.rps)} | ${ratio(s.rps, f.rps)} |`,
        `| p99 ms | ${p99(s)} | ${p99(f)} | ${p99(ff)} | ${p99(p)} | ${ratio(s.p99, p.p99)} | ${ratio(f.p99, ff.p99)} | ${ratio(s.p99, f.p99)} |`,
      ];
    }),
    `| peak RSS MB (the write cases) | ${wrss('svctrail')} | ${wrss('framework-floor-full')} | ${wrss('floor-full')} | ${wrss('floor')} | ${ratio(wrss('svctrail'), wrss('floor'))} | ${ratio(wrss('framework-floor-full'), wrss('floor-full'))} | ${ratio(wrss('svctrail'), wrss('framework-floor-full'))} |`,
    '',
    loadWindows.some((l) => l.busy)
      ? `**Busy run**: ${loadWindows.filter((l) => l.busy).length} of ${loadWindows.length} phases ran with the ${BUSY_RULE}: other work shared the cores; their rows are marked [busy] and are noisy.`
      : `No phase ran with the ${BUSY_RULE}.`,
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, `${new Date().toISOString().replace(/[:.]/g, '-')}-framework.md`), `${table}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
