// `npm run bench` / `npm run bench:quick`: svctrail against the raw floor (floor-server.ts),
// in one run, on loopback HTTPS, every load bounded in time.
//
//   full   : the 1M-event dataset (bench/data/1m) for every case, plus PUT rows on the 10k
//            dataset to show whether per-write cost stays flat as the log grows; 8 s per case.
//   --quick: the 10k dataset only, 2 s per case.
//
// Each dataset is copied to a scratch directory first (the server and the floor write to it;
// the copy is removed at the end), svctrail runs all its cases, then the floor runs the same
// cases on the same copy. Prints a table (case, svctrail, floor, ratio, target, met?) and writes
// bench/results/<timestamp>.json. No assertion fails the process on a missed target: these are
// measurements (exit code 1 only when the benchmark itself could not run).
//
// usage: node bench/dist/run.js [--quick] [--duration SECONDS] [--only SUBSTRING] [--keep]
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_ROOT, DatasetManifest, ensureDataset } from './generate-data';
import { ROOT } from './real';
import { Rng } from './rng';

// ---------------------------------------------------------------------------------------------
// Configuration

/** The history API paths (history issue); a 404 from svctrail marks the case "not served". */
const HISTORY_PATH = (ns: string, name: string, kind: string) =>
  `/apis/history.svctrail.io/v1alpha1/namespaces/${ns}/services/${name}/${kind}?limit=50`;
const WATCHERS = 100;
const WATCH_WRITE_RATE = 500; // status PUTs per second while 100 watchers listen
const RSS_LIMIT = 256 * 1024 * 1024;
/** Events replayed both ways in the full run (svctrail's rebuild of 1M events takes minutes). */
const REPLAY_PREFIX = 100_000;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const QUICK = args.quick;
const DURATION = Number(args.duration ?? (QUICK ? 2 : 8));
const WARMUP = QUICK ? 0.5 : 1;

const log = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// Processes

type Target = 'svctrail' | 'floor';

interface Running {
  target: Target;
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

const children = new Set<ChildProcess>();
process.on('SIGINT', () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(130);
});

function start(target: Target, dataDir: string): Promise<Running> {
  const script = target === 'svctrail' ? join(ROOT, 'dist', 'main.js') : join(ROOT, 'bench', 'dist', 'floor-server.js');
  const child = spawn(process.execPath, [script, '--port', '0', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => (children.delete(child), resolve())));
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${target} did not start in 300 s: ${out} ${err}`)), 300_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving (https:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ target, child, url: match[1], exited });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.length > 20_000) err = err.slice(-10_000);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${target} exited: ${err}`));
    });
  });
}

async function stop(server: Running): Promise<void> {
  server.child.kill('SIGTERM');
  const timeout = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  await server.exited;
  clearTimeout(timeout);
}

function memory(pid: number): { peakRssBytes: number; rssBytes: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
  return { peakRssBytes: kb('VmHWM'), rssBytes: kb('VmRSS') };
}

// ---------------------------------------------------------------------------------------------
// Load

interface LoadResult {
  connections: number;
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statusCodes: Record<string, number>;
}

interface RequestSpec {
  method: 'GET' | 'PUT';
  path: string;
  body?: string;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

class Samples {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

function load(
  server: Running,
  token: string,
  connections: number,
  seconds: number,
  next: () => RequestSpec,
  extra: { overallRate?: number } = {},
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latencies = new Samples();
    const statusCodes: Record<string, number> = {};
    let ok = 0;
    const instance = autocannon(
      {
        url: server.url,
        connections,
        duration: seconds,
        pipelining: 1,
        timeout: 30,
        ...(extra.overallRate ? { overallRate: extra.overallRate } : {}),
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req: any) => {
              const spec = next();
              return { ...req, method: spec.method, path: spec.path, body: spec.body };
            },
          },
        ],
      } as autocannon.Options,
      (error, result) => {
        if (error) return reject(error);
        const sorted = latencies.sorted();
        const elapsed = result.duration || seconds;
        resolve({
          connections,
          seconds: elapsed,
          ok,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          rps: ok / elapsed,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          max: sorted.length ? sorted[sorted.length - 1] : NaN,
          statusCodes,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        latencies.push(responseTime);
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The dataset as the requests need it

interface Fixture {
  dataDir: string;
  manifest: DatasetManifest;
  token: string;
  head: number;
  namespaces: string[];
  all: { ns: string; name: string }[];
  /** LoadBalancer Services: PUT body split around the ingress IP. */
  lb: { ns: string; name: string; before: string; after: string }[];
  hot: { ns: string; name: string; before: string; after: string };
}

function readFixture(dataDir: string, manifest: DatasetManifest): Fixture {
  const db = new Database(join(dataDir, 'svctrail.db'), { readonly: true });
  const rows = db.prepare('SELECT namespace AS ns, name, object FROM services ORDER BY namespace, name').all() as { ns: string; name: string; object: string }[];
  const head = db.prepare('SELECT max(position) FROM events').pluck().get() as number;
  const revisionsOf = db.prepare('SELECT count(*) FROM service_revisions WHERE namespace = ? AND name = ?').pluck();
  const lb: Fixture['lb'] = [];
  for (const row of rows) {
    const object = JSON.parse(row.object);
    if (object.spec.type !== 'LoadBalancer') continue;
    delete object.metadata.resourceVersion;
    object.status.loadBalancer = { ingress: [{ ip: IP_MARK, ipMode: 'VIP' }] };
    const [before, after] = JSON.stringify(object).split(IP_MARK);
    lb.push({ ns: row.ns, name: row.name, before, after });
  }
  // The hot Service: the LoadBalancer Service with the longest history (hot ones got 30% of writes).
  let hot = lb[0];
  let longest = -1;
  for (const candidate of lb.slice(0, 400)) {
    const n = revisionsOf.get(candidate.ns, candidate.name) as number;
    if (n > longest) [hot, longest] = [candidate, n];
  }
  db.close();
  const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split('\n')[0].split(',')[0];
  const namespaces = [...new Set(rows.filter((r) => r.ns !== 'default').map((r) => r.ns))];
  return { dataDir, manifest, token, head, namespaces, all: rows.map(({ ns, name }) => ({ ns, name })), lb, hot };
}

const IP_MARK = '__BENCH_INGRESS_IP__';
let ipCounter = 1;
function nextIP(): string {
  const c = ipCounter++;
  return `100.${64 + ((c >> 16) & 63)}.${(c >> 8) & 255}.${c & 255}`;
}

// ---------------------------------------------------------------------------------------------
// Cases

interface CaseResult {
  id: string;
  title: string;
  svctrail?: Record<string, unknown>;
  floor?: Record<string, unknown>;
}

interface CaseDef {
  id: string;
  title: string;
  connections: number;
  next: (rng: Rng, f: Fixture) => RequestSpec;
  /** A probe request; a non-2xx answer marks the case as not served by that target. */
  probe?: (f: Fixture) => string;
}

const putMany = (connections: number): CaseDef => ({
  id: `put-many-${connections}`,
  title: `PUT status, many Services, ${connections} conn`,
  connections,
  next: (rng, f) => {
    const s = f.lb[rng.int(f.lb.length)];
    return { method: 'PUT', path: `/api/v1/namespaces/${s.ns}/services/${s.name}/status`, body: s.before + nextIP() + s.after };
  },
});
const putHot = (connections: number): CaseDef => ({
  id: `put-hot-${connections}`,
  title: `PUT status, one hot Service, ${connections} conn`,
  connections,
  next: (_rng, f) => ({
    method: 'PUT',
    path: `/api/v1/namespaces/${f.hot.ns}/services/${f.hot.name}/status`,
    body: f.hot.before + nextIP() + f.hot.after,
  }),
});
const randomService = (rng: Rng, f: Fixture) => f.all[rng.int(f.all.length)];
const READ_CASES: CaseDef[] = [
  {
    id: 'get-10',
    title: 'GET one Service, 10 conn',
    connections: 10,
    next: (rng, f) => {
      const s = randomService(rng, f);
      return { method: 'GET', path: `/api/v1/namespaces/${s.ns}/services/${s.name}` };
    },
  },
  {
    id: 'list-10',
    title: 'LIST a namespace (100 Services), 10 conn',
    connections: 10,
    next: (rng, f) => ({ method: 'GET', path: `/api/v1/namespaces/${f.namespaces[rng.int(f.namespaces.length)]}/services` }),
  },
  {
    id: 'time-travel-10',
    title: 'LIST a namespace as of a past RV (Exact), 10 conn',
    connections: 10,
    next: (rng, f) => ({
      method: 'GET',
      path: `/api/v1/namespaces/${f.namespaces[rng.int(f.namespaces.length)]}/services?resourceVersion=${1 + rng.int(f.head)}&resourceVersionMatch=Exact`,
    }),
  },
  ...['changes', 'conditiontransitions', 'ingressintervals'].map(
    (kind): CaseDef => ({
      id: `history-${kind}-10`,
      title: `history: ${kind} of one Service (limit 50), 10 conn`,
      connections: 10,
      next: (rng, f) => {
        const s = randomService(rng, f);
        return { method: 'GET', path: HISTORY_PATH(s.ns, s.name, kind) };
      },
      probe: (f) => HISTORY_PATH(f.hot.ns, f.hot.name, kind),
    }),
  ),
];
const WRITE_CASES: CaseDef[] = [putMany(1), putMany(16), putMany(64), putHot(1), putHot(16), putHot(64)];
const FLAT_CASES: CaseDef[] = [putMany(64), putHot(64)];

function get(server: Running, token: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, server.url),
      { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, rejectUnauthorized: false, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function runCase(server: Running, f: Fixture, def: CaseDef, seed: number): Promise<Record<string, unknown>> {
  if (def.probe) {
    const probe = await get(server, f.token, def.probe(f));
    if (probe.status < 200 || probe.status >= 300) return { served: false, probeStatus: probe.status };
  }
  const rng = new Rng(seed);
  await load(server, f.token, def.connections, WARMUP, () => def.next(rng, f));
  const result = await load(server, f.token, def.connections, DURATION, () => def.next(rng, f));
  log(
    `  ${server.target.padEnd(8)} ${def.id.padEnd(22)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${fmtMs(result.p50)}  p99 ${fmtMs(result.p99)} ms` +
      (result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors}: ${JSON.stringify(result.statusCodes)})` : ''),
  );
  return { served: true, ...result };
}

/** 100 watchers on every Service; status PUTs at a fixed rate; delivery lag measured per line. */
async function runWatch(server: Running, f: Fixture): Promise<Record<string, unknown>> {
  const headText = (await get(server, f.token, '/api/v1/namespaces/default/services?limit=1')).text;
  const head = JSON.parse(headText).metadata.resourceVersion as string;
  const sentAt = new Map<string, number>();
  const lag = new Samples();
  const seenIPs = new Set<string>();
  let lines = 0;
  let bytes = 0;
  let dropped = 0;
  const closers: (() => void)[] = [];
  await Promise.all(
    Array.from(
      { length: WATCHERS },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = httpsRequest(
            new URL(`/api/v1/services?watch=true&resourceVersion=${head}`, server.url),
            { method: 'GET', headers: { authorization: `Bearer ${f.token}`, accept: 'application/json' }, rejectUnauthorized: false, agent: false },
            (res) => {
              let buffer = '';
              let closing = false;
              closers.push(() => {
                closing = true;
                res.destroy();
              });
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => {
                const now = performance.now();
                bytes += chunk.length;
                buffer += chunk;
                let nl: number;
                while ((nl = buffer.indexOf('\n')) >= 0) {
                  const line = buffer.slice(0, nl);
                  buffer = buffer.slice(nl + 1);
                  lines++;
                  const at = line.indexOf('"ingress":[{"ip":"');
                  if (at >= 0) {
                    const ip = line.slice(at + 18, line.indexOf('"', at + 18));
                    const sent = sentAt.get(ip);
                    if (sent !== undefined) {
                      lag.push(now - sent);
                      seenIPs.add(ip);
                    }
                  }
                }
              });
              res.on('close', () => {
                if (!closing) dropped++;
              });
              resolve();
            },
          );
          req.on('error', reject);
          req.end();
        }),
    ),
  );
  const rng = new Rng(7);
  const put = () => {
    const s = f.lb[rng.int(f.lb.length)];
    const ip = nextIP();
    sentAt.set(ip, performance.now());
    return { method: 'PUT' as const, path: `/api/v1/namespaces/${s.ns}/services/${s.name}/status`, body: s.before + ip + s.after };
  };
  const result = await load(server, f.token, 16, DURATION, put, { overallRate: WATCH_WRITE_RATE });
  await new Promise((r) => setTimeout(r, 1000)); // let the last lines arrive
  for (const close of closers) close();
  const sorted = lag.sorted();
  // Completeness of the fan-out: every write some watcher saw should reach all of them.
  const expected = seenIPs.size * WATCHERS;
  const out = {
    watchers: WATCHERS,
    writeRate: WATCH_WRITE_RATE,
    writesPerSecond: result.rps,
    putP99: result.p99,
    deliveredPerSecond: lag.length / result.seconds,
    delivered: lag.length,
    expected,
    deliveredFraction: expected ? lag.length / expected : NaN,
    lagP50: percentile(sorted, 50),
    lagP99: percentile(sorted, 99),
    watchersDropped: dropped,
    bytes,
    lines,
  };
  log(
    `  ${server.target.padEnd(8)} watch-100              ${out.writesPerSecond.toFixed(0)} writes/s → ${out.deliveredPerSecond.toFixed(0)} deliveries/s ` +
      `(${(out.deliveredFraction * 100).toFixed(1)}%), lag p50 ${fmtMs(out.lagP50)} p99 ${fmtMs(out.lagP99)} ms, dropped ${dropped}`,
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Datasets

function scratchCopy(source: string, label: string): string {
  const dir = join(DATA_ROOT, `run-${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const file of ['svctrail.db', 'ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv', 'manifest.json']) {
    copyFileSync(join(source, file), join(dir, file));
  }
  return dir;
}

function storage(dataDir: string, manifest: DatasetManifest): Record<string, number> {
  const db = new Database(join(dataDir, 'svctrail.db'), { readonly: true });
  const bytes = statSync(join(dataDir, 'svctrail.db')).size;
  const events = db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  let logBytes = NaN;
  try {
    const rows = db.prepare('SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name').all() as { name: string; size: number }[];
    const indexes = new Set(
      (db.prepare(`SELECT name FROM sqlite_master WHERE tbl_name = 'events'`).pluck().all() as string[]).concat(['events']),
    );
    logBytes = rows.filter((r) => indexes.has(r.name) || r.name.startsWith('sqlite_autoindex_events')).reduce((a, r) => a + r.size, 0);
  } catch {
    // dbstat not compiled in
  }
  db.close();
  return { events, bytes, bytesPerEvent: bytes / events, logBytes, logBytesPerEvent: logBytes / events, manifestEvents: manifest.events };
}

function replay(dbPath: string, mode: 'raw' | 'svctrail' | 'prefix', extra: string[] = []): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'dist', 'replay.js'), '--db', dbPath, '--mode', mode, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => {
      children.delete(child);
      if (code !== 0) return reject(new Error(`replay --mode ${mode} failed: ${err}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Report

const fmtMs = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
const fmtNum = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const fmtMB = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${(v / 1024 / 1024).toFixed(0)} MB` : '–');

interface Row {
  case: string;
  svctrail: string;
  floor: string;
  ratio: string;
  target: string;
  met: string;
  values?: { svctrail?: number; floor?: number; ratio?: number };
}

function ratioRow(
  label: string,
  s: number | undefined,
  fl: number | undefined,
  fmt: (v: unknown) => string,
  target?: { text: string; check: (s: number, fl: number, ratio: number) => boolean },
): Row {
  const ratio = s !== undefined && fl !== undefined && fl !== 0 ? s / fl : undefined;
  const met = target && s !== undefined && fl !== undefined && ratio !== undefined ? (target.check(s, fl, ratio) ? 'yes' : 'NO') : target ? '?' : '';
  return {
    case: label,
    svctrail: fmt(s),
    floor: fmt(fl),
    ratio: ratio === undefined || !Number.isFinite(ratio) ? '–' : `${ratio.toFixed(2)}`,
    target: target?.text ?? '',
    met,
    values: { svctrail: s, floor: fl, ratio },
  };
}

function printTable(rows: Row[]): void {
  const headers = ['case', 'svctrail', 'floor', 'ratio', 'target', 'met?'];
  const cells = rows.map((r) => [r.case, r.svctrail, r.floor, r.ratio, r.target, r.met]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (i === 0 || i === 4 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  log(line(headers));
  log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) log(line(c));
}

// ---------------------------------------------------------------------------------------------

async function phase(target: Target, f: Fixture, defs: CaseDef[], watch: boolean, results: Map<string, CaseResult>): Promise<Record<string, number>> {
  const t0 = performance.now();
  const server = await start(target, f.dataDir);
  log(` ${target} up at ${server.url} after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    let seed = 1;
    for (const def of defs) {
      if (args.only && !def.id.includes(args.only)) continue;
      const entry = results.get(def.id) ?? { id: def.id, title: def.title };
      entry[target] = await runCase(server, f, def, seed++);
      results.set(def.id, entry);
    }
    if (watch && (!args.only || 'watch-100'.includes(args.only))) {
      const entry = results.get('watch-100') ?? { id: 'watch-100', title: `watch fan-out: ${WATCHERS} watchers, ${WATCH_WRITE_RATE} PUT/s` };
      entry[target] = await runWatch(server, f);
      results.set('watch-100', entry);
    }
    return { ...memory(server.child.pid!), startupMs: performance.now() - t0 };
  } finally {
    await stop(server);
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npx nest build` first');
  const startedAt = new Date();
  const mainKey = QUICK ? '10k' : '1m';
  log(`svctrail benchmark (${QUICK ? 'quick' : 'full'}: ${DURATION} s per case, dataset ${mainKey}) on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
  const mainSet = await ensureDataset(mainKey, { log });
  const flatSet = QUICK ? undefined : await ensureDataset('10k', { log });

  const results = new Map<string, CaseResult>();
  const memoryOf: Record<string, Record<string, number>> = {};
  const scratch: string[] = [];
  let replayRaw: Record<string, number> | undefined;
  let replaySvc: Record<string, number> | undefined;
  let replayFull: Record<string, number> | undefined;
  const loadBefore = loadavg();
  let storageMain: Record<string, number>;
  let storageFlat: Record<string, number> | undefined;
  const flatResults = new Map<string, CaseResult>();
  try {
    log(`\n[${mainKey}] ${mainSet.manifest.events.toLocaleString('en-US')} events, ${mainSet.manifest.liveServices.toLocaleString('en-US')} live Services`);
    storageMain = storage(mainSet.dir, mainSet.manifest);
    const work = scratchCopy(mainSet.dir, mainKey);
    scratch.push(work);
    const fixture = readFixture(work, mainSet.manifest);
    log(` hot Service: ${fixture.hot.ns}/${fixture.hot.name}; ${fixture.lb.length} LoadBalancer Services take the PUTs`);
    const defs = [...READ_CASES, ...WRITE_CASES];
    memoryOf.svctrail = await phase('svctrail', fixture, defs, true, results);
    memoryOf.floor = await phase('floor', fixture, defs, true, results);

    if (flatSet) {
      log(`\n[10k] ${flatSet.manifest.events.toLocaleString('en-US')} events: the same PUTs on a short log`);
      storageFlat = storage(flatSet.dir, flatSet.manifest);
      const flatWork = scratchCopy(flatSet.dir, '10k');
      scratch.push(flatWork);
      const flatFixture = readFixture(flatWork, flatSet.manifest);
      await phase('svctrail', flatFixture, FLAT_CASES, false, flatResults);
      await phase('floor', flatFixture, FLAT_CASES, false, flatResults);
    }

    if (!args.only || 'replay'.includes(args.only)) {
      // svctrail's rebuild of a whole 1M log takes minutes, so the full run replays a prefix of
      // the generated log (both ways, the same events); the raw fold also reads the whole log.
      let log0 = join(mainSet.dir, 'svctrail.db');
      if (REPLAY_PREFIX < mainSet.manifest.events) {
        const prefix = join(work, 'prefix.db');
        const made = await replay(log0, 'prefix', ['--out', prefix, '--limit', String(REPLAY_PREFIX)]);
        log(`\nreplay: the first ${fmtNum(made.events)} events of the ${mainKey} log`);
        replayFull = await replay(log0, 'raw');
        log(`  raw read-parse-fold of the whole log: ${fmtNum(replayFull.events)} events in ${(replayFull.ms / 1000).toFixed(1)} s = ${fmtNum(replayFull.eventsPerSecond)}/s`);
        log0 = prefix;
      } else {
        log(`\nreplay: the ${mainKey} log`);
        log0 = join(work, 'replay.db');
        copyFileSync(join(mainSet.dir, 'svctrail.db'), log0);
      }
      replayRaw = await replay(log0, 'raw');
      log(`  raw read-parse-fold: ${fmtNum(replayRaw.events)} events in ${(replayRaw.ms / 1000).toFixed(1)} s = ${fmtNum(replayRaw.eventsPerSecond)}/s`);
      replaySvc = await replay(log0, 'svctrail');
      log(`  svctrail rebuild:    ${fmtNum(replaySvc.events)} events in ${(replaySvc.ms / 1000).toFixed(1)} s = ${fmtNum(replaySvc.eventsPerSecond)}/s`);
    }
  } finally {
    if (!args.keep) for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }

  // The table.
  const rows: Row[] = [];
  const num = (o: Record<string, unknown> | undefined, k: string) => (o && typeof o[k] === 'number' ? (o[k] as number) : undefined);
  for (const def of [...WRITE_CASES]) {
    const r = results.get(def.id);
    if (!r) continue;
    rows.push(ratioRow(`${def.title}: req/s`, num(r.svctrail, 'rps'), num(r.floor, 'rps'), fmtNum, { text: '≥ 0.50 × floor', check: (_s, _f, q) => q >= 0.5 }));
    rows.push(ratioRow(`  p50 ms`, num(r.svctrail, 'p50'), num(r.floor, 'p50'), fmtMs));
    rows.push(ratioRow(`  p99 ms`, num(r.svctrail, 'p99'), num(r.floor, 'p99'), fmtMs, { text: '≤ 2 × floor', check: (_s, _f, q) => q <= 2 }));
  }
  for (const def of READ_CASES) {
    const r = results.get(def.id);
    if (!r) continue;
    const absolute = def.id.startsWith('get') || def.id.startsWith('history');
    if (r.svctrail && r.svctrail.served === false) {
      rows.push({
        case: `${def.title}`,
        svctrail: `not served (${String(r.svctrail.probeStatus)})`,
        floor: `${fmtNum(num(r.floor, 'rps'))} req/s, p99 ${fmtMs(num(r.floor, 'p99'))}`,
        ratio: '–',
        target: absolute ? 'p99 ≤ 2 ms' : '',
        met: absolute ? 'NO' : '',
      });
      continue;
    }
    rows.push(ratioRow(`${def.title}: req/s`, num(r.svctrail, 'rps'), num(r.floor, 'rps'), fmtNum));
    rows.push(ratioRow(`  p50 ms`, num(r.svctrail, 'p50'), num(r.floor, 'p50'), fmtMs));
    rows.push(
      ratioRow(`  p99 ms`, num(r.svctrail, 'p99'), num(r.floor, 'p99'), fmtMs, absolute ? { text: 'p99 ≤ 2 ms', check: (s) => s <= 2 } : undefined),
    );
  }
  const w = results.get('watch-100');
  if (w) {
    rows.push(ratioRow(`${w.title}: writes/s`, num(w.svctrail, 'writesPerSecond'), num(w.floor, 'writesPerSecond'), fmtNum));
    rows.push(ratioRow(`  deliveries/s`, num(w.svctrail, 'deliveredPerSecond'), num(w.floor, 'deliveredPerSecond'), fmtNum));
    rows.push(ratioRow(`  delivered %`, (num(w.svctrail, 'deliveredFraction') ?? NaN) * 100, (num(w.floor, 'deliveredFraction') ?? NaN) * 100, (v) => `${(v as number).toFixed(1)}`));
    rows.push(ratioRow(`  delivery lag p50 ms`, num(w.svctrail, 'lagP50'), num(w.floor, 'lagP50'), fmtMs));
    rows.push(ratioRow(`  delivery lag p99 ms`, num(w.svctrail, 'lagP99'), num(w.floor, 'lagP99'), fmtMs));
    rows.push(ratioRow(`  PUT p99 ms while watched`, num(w.svctrail, 'putP99'), num(w.floor, 'putP99'), fmtMs));
    rows.push(ratioRow(`  watchers dropped`, num(w.svctrail, 'watchersDropped'), num(w.floor, 'watchersDropped'), (v) => String(v ?? '–')));
  }
  if (replayRaw && replaySvc) {
    rows.push(
      ratioRow(`replay events/s, ${fmtNum(replaySvc.events)} events (floor: raw read-parse-fold)`, replaySvc.eventsPerSecond, replayRaw.eventsPerSecond, fmtNum, {
        text: '≥ 0.50 × floor',
        check: (_s, _f, q) => q >= 0.5,
      }),
    );
    rows.push(ratioRow(`  replay peak RSS`, replaySvc.peakRssBytes, replayRaw.peakRssBytes, fmtMB));
    if (replayFull) rows.push(ratioRow(`  raw read-parse-fold of all ${fmtNum(replayFull.events)} events: events/s`, undefined, replayFull.eventsPerSecond, fmtNum));
  }
  rows.push(
    ratioRow(`peak RSS of the server (whole run)`, memoryOf.svctrail?.peakRssBytes, memoryOf.floor?.peakRssBytes, fmtMB, {
      text: '≤ 256 MB',
      check: (s) => s <= RSS_LIMIT,
    }),
  );
  rows.push(ratioRow(`database bytes/event, ${mainKey} (floor: events table + indexes)`, storageMain!.bytesPerEvent, storageMain!.logBytesPerEvent, fmtNum));
  if (storageFlat) rows.push(ratioRow(`database bytes/event, 10k (floor: events table + indexes)`, storageFlat.bytesPerEvent, storageFlat.logBytesPerEvent, fmtNum));
  for (const def of FLAT_CASES) {
    const big = results.get(def.id);
    const small = flatResults.get(def.id);
    if (!big || !small) continue;
    for (const t of ['svctrail', 'floor'] as const) {
      const b = num(big[t], 'rps');
      const s = num(small[t], 'rps');
      rows.push(
        ratioRow(`flat? ${def.title}, ${t}: req/s 1M vs 10k (columns: 1M, 10k)`, b, s, fmtNum, {
          text: '1M ≥ 0.80 × 10k',
          check: (_b, _s, q) => q >= 0.8,
        }),
      );
      rows.push(ratioRow(`  p99 ms 1M vs 10k`, num(big[t], 'p99'), num(small[t], 'p99'), fmtMs));
    }
  }

  log('');
  printTable(rows);

  const out = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    mode: QUICK ? 'quick' : 'full',
    secondsPerCase: DURATION,
    machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version, platform: process.platform },
    datasets: { [mainKey]: { ...mainSet.manifest, storage: storageMain! }, ...(flatSet ? { '10k': { ...flatSet.manifest, storage: storageFlat } } : {}) },
    cases: Object.fromEntries(results),
    flat10k: Object.fromEntries(flatResults),
    replay: { raw: replayRaw, svctrail: replaySvc, rawWholeLog: replayFull },
    loadAverage: { before: loadBefore, after: loadavg() },
    memory: memoryOf,
    rows: rows.map(({ values, ...r }) => ({ ...r, ...values })),
  };
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}${QUICK ? '-quick' : ''}.json`);
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  const busy = Math.max(loadBefore[0], loadavg()[0]);
  if (busy > 1) log(`\nnote: load average was ${loadBefore[0].toFixed(2)} → ${loadavg()[0].toFixed(2)}: other processes shared the CPUs; figures are noisy`);
  log(`\nresults: ${file}  (total ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s)`);
}

main().catch((error: unknown) => {
  for (const c of children) c.kill('SIGTERM');
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
