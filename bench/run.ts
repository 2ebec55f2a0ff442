// `npm run bench` / `npm run bench:quick`: svctrail against the raw floor (floor-server.ts),
// in one run, on loopback HTTPS, every load bounded in time. The targets are issue 11's.
//
//   full   : the 1M-event dataset (bench/data/1m) for every case, plus the cases whose cost must
//            not grow with history (time travel, watch resume, who-had, PUT at 64 connections)
//            on the 10k dataset, so "1M within 1.25× of 10k" reads off the table; 8 s per case.
//   --quick: the 10k dataset only, 2 s per case.
//
// floor-full (floor-server.js --variant storage: svctrail's storage work per write on the raw
// stack) runs the write cases, GET / LIST and the watch fan-out too, so every write figure reads
// against the least work (the floor, which the targets judge by) and against the same
// unavoidable storage work (floor-full). `--profile CASE-ID` runs that one case against
// svctrail alone, started with --cpu-prof, and reports where its CPU time went (by module,
// then by function; bench/profile-summary.ts).
//
// svctrail-pg / svctrail-pg3 (svctrail on PostgreSQL, one replica / three replicas behind the
// same load, round-robin by connection): after the SQLite phases, on the 10k dataset exported
// through the CLI and imported into a fresh database svctrail_bench_<pid> per target (the import
// timed), a subset of the cases (PG_READS, PG_WRITES settled, watch fan-out) plus, on three
// replicas, the cross-replica watch lag (issue 13 item 3); a table "PostgreSQL" after the main
// one. Skipped with a note when PostgreSQL (SVCTRAIL_BENCH_POSTGRES) cannot be reached.
//
// Each target (svctrail, then the floor) runs on its own fresh copy of the dataset, in this
// order: reads, history, time travel, watch resume, writes (each settled, then right after a
// 64-connection burst), watch fan-out. Then replay / verify / export / import through the CLI
// against a raw read-parse-fold and a raw import of the same log. Prints the table (case,
// svctrail, floor-full, floor, svctrail ÷ floor-full, svctrail ÷ floor, target, met) and a
// summary per target, and writes
// bench/results/<timestamp>.json, <timestamp>.md and latest.md. A missed target is a
// measurement, not a failure: the exit code is 1 only when the benchmark itself could not run.
//
// usage: node bench/dist/run.js [--quick] [--duration SECONDS] [--only SUBSTRING[,SUBSTRING]] [--keep] [--dataset 1m|10k] [--profile CASE-ID]
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_ROOT, DatasetManifest, ensureDataset, HEAVY_ADDRESS, ONCE_ADDRESS } from './generate-data';
import { busyShare, readCpuTimes } from './machine-cpu';
import { formatProfileSummary, ProfileSummary, summarizeProfile } from './profile-summary';
import { MirrorFigures, mirrorPhase, mirrorRows } from './mirror';
import { ROOT, real } from './real';
import { Rng } from './rng';

// ---------------------------------------------------------------------------------------------
// Configuration

const HISTORY = '/apis/history.svctrail.io/v1alpha1';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const WATCHERS = 100;
const WATCH_WRITE_RATE = 500; // status PUTs per second, with and without 100 watchers
const RSS_LIMIT = 256 * 1024 * 1024;
const CLI_RSS_LIMIT = 512 * 1024 * 1024;
/** Events between the resume point and the head for watch resume and the feed. */
const CATCH_UP_EVENTS = 1000;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** The main dataset of a full run (default 1m); `--dataset 10k` runs the full pipeline small. */
    dataset: { type: 'string' },
    /** One case id (e.g. put-many-1): run it against svctrail alone under --cpu-prof and summarise the profile. */
    profile: { type: 'string' },
    /** Only these targets (e.g. `svctrail`: its phases alone, to look at one figure again); default all. */
    targets: { type: 'string' },
  },
});
const PROFILE = args.profile;
const PROFILE_DIR = join(ROOT, 'bench', 'results', 'profiles');
const QUICK = args.quick;
const DURATION = Number(args.duration ?? (QUICK ? 2 : 8));
const WARMUP = QUICK ? 0.5 : 1;
/** The 64-connection burst before each "after burst" measurement. */
const BURST = QUICK ? 2 : 5;
/** Settled: the server wrote nothing to disk and its WAL did not change for this long. */
const QUIET_MS = QUICK ? 1500 : 3000;
const SETTLE_LIMIT_MS = 90_000;
const ONLY = args.only?.split(',').filter(Boolean);
const wanted = (id: string) => (PROFILE ? id === PROFILE : !ONLY || ONLY.some((o) => id.includes(o)));
const TARGETS = args.targets?.split(',').filter(Boolean);
const runs = (target: string) => !TARGETS || TARGETS.includes(target);

const log = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// Processes

/** floor-full: the floor's raw stack doing svctrail's storage work per write (floor-server.ts --variant storage). */
/** svctrail-pg / svctrail-pg3: svctrail on PostgreSQL, one replica / three replicas on one database. */
type Target = 'svctrail' | 'floor-full' | 'floor' | 'svctrail-pg' | 'svctrail-pg3';
const PG_TARGETS = ['svctrail-pg', 'svctrail-pg3'] as const;
type PgTarget = (typeof PG_TARGETS)[number];
const isPg = (t: Target): t is PgTarget => t === 'svctrail-pg' || t === 'svctrail-pg3';

interface Running {
  target: Target;
  child: ChildProcess;
  url: string;
  /** Every replica's URL (svctrail-pg3: three; the load is spread round-robin over them). */
  urls: string[];
  /** The other replicas' processes (svctrail-pg3), stopped with this one. */
  replicas: Running[];
  dataDir: string;
  exited: Promise<void>;
}

const children = new Set<ChildProcess>();
process.on('SIGINT', () => {
  for (const c of children) c.kill('SIGTERM');
  // The bench's PostgreSQL database goes too, once its replicas let go of it (DROP … FORCE).
  void dropPgDatabase().finally(() => process.exit(130));
});

function start(target: Target, dataDir: string, pgUrl?: string): Promise<Running> {
  const script = target === 'svctrail' || isPg(target) ? join(ROOT, 'dist', 'main.js') : join(ROOT, 'bench', 'dist', 'floor-server.js');
  const extra = target === 'floor' ? ['--drop-unused-indexes'] : target === 'floor-full' ? ['--variant', 'storage'] : isPg(target) ? ['--storage', pgUrl!] : [];
  const nodeFlags = PROFILE && target === 'svctrail' ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
  const child = spawn(process.execPath, [...nodeFlags, script, '--port', '0', '--data-dir', dataDir, ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => (children.delete(child), resolve())));
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${target} did not start in 300 s: ${out} ${err}`)), 300_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (out.length > 20_000) return;
      out += chunk.toString();
      const match = /serving (https:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ target, child, url: match[1], urls: [match[1]], replicas: [], dataDir, exited });
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
  await Promise.all(server.replicas.map(stop));
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

/** Bytes the process (all its threads) caused to be written to storage so far. */
function diskWrites(pid: number): number {
  try {
    return Number(/write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

const walSize = (dataDir: string) => {
  try {
    return statSync(join(dataDir, 'svctrail.db-wal')).size;
  } catch {
    return 0;
  }
};

/**
 * Waits until the server has written nothing to disk and its WAL file has not changed for
 * QUIET_MS (the checkpoint after the previous case is over), at most SETTLE_LIMIT_MS.
 */
async function settle(server: Running): Promise<{ settleMs: number; settled: boolean }> {
  const t0 = performance.now();
  let last = `${diskWrites(server.child.pid!)}:${walSize(server.dataDir)}`;
  let quietSince = t0;
  while (performance.now() - t0 < SETTLE_LIMIT_MS) {
    await sleep(250);
    const now = `${diskWrites(server.child.pid!)}:${walSize(server.dataDir)}`;
    if (now !== last) {
      last = now;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= QUIET_MS) {
      return { settleMs: quietSince - t0, settled: true };
    }
  }
  return { settleMs: performance.now() - t0, settled: false };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  body?: string | Buffer;
  /** Accept and Content-Type (default JSON). */
  accept?: string;
  contentType?: string;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

class Samples {
  private data = new Float64Array(1 << 12);
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
  summary(): { n: number; p50: number; p99: number; max: number } {
    const s = this.sorted();
    return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : NaN };
  }
}

/**
 * Load on every URL of `server` at once: one autocannon per replica URL, the connections (and
 * the overall rate) split between them as evenly as they divide, so three replicas share one
 * load round-robin by connection. Latencies and answers are merged into one result.
 */
const machineCpu = () => readCpuTimes(() => readFileSync('/proc/stat', 'utf8'));

function load(server: Running, token: string, connections: number, seconds: number, next: () => RequestSpec, extra: { overallRate?: number; urls?: string[] } = {}): Promise<LoadResult> {
  const latencies = new Samples();
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  // Fewer connections than replicas: the first replicas only (a 1-connection case stays one connection).
  const urls = (extra.urls ?? server.urls).slice(0, Math.max(1, connections));
  const shares = urls.map((_, i) => Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0));
  const base = { authorization: `Bearer ${token}` };
  const one = (url: string, share: number) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: share,
          duration: seconds,
          pipelining: 1,
          timeout: 30,
          ...(extra.overallRate ? { overallRate: Math.max(1, Math.round((extra.overallRate * share) / connections)) } : {}),
          headers: { ...base, accept: 'application/json', 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (req: any) => {
                const spec = next();
                const headers = { ...base, accept: spec.accept ?? 'application/json', 'content-type': spec.contentType ?? 'application/json' };
                return { ...req, method: spec.method, path: spec.path, body: spec.body, headers };
              },
            },
          ],
        } as autocannon.Options,
        (error, result) => (error ? reject(error) : resolve(result)),
      );
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
        if (statusCode >= 200 && statusCode < 300) {
          ok++;
          latencies.push(responseTime);
        }
      });
    });
  return Promise.all(urls.map((url, i) => one(url, shares[i]))).then((all) => {
    const sorted = latencies.sorted();
    const elapsed = Math.max(...all.map((r) => r.duration || seconds));
    return {
      connections,
      seconds: elapsed,
      ok,
      non2xx: all.reduce((a, r) => a + r.non2xx, 0),
      errors: all.reduce((a, r) => a + r.errors + r.timeouts, 0),
      rps: ok / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1] : NaN,
      statusCodes,
    };
  });
}

interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

/** One request on a keep-alive agent; the whole answer is read. */
function call(server: Running, token: string, path: string, agent: Agent | false, accept = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = httpsRequest(
      new URL(path, server.url),
      { method: 'GET', headers: { authorization: `Bearer ${token}`, accept }, rejectUnauthorized: false, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function getJson(server: Running, token: string, path: string): Promise<{ status: number; json: any }> {
  const a = await call(server, token, path, false);
  let json: unknown;
  try {
    json = JSON.parse(a.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: a.status, json };
}

/**
 * `connections` loops, each running `step` again and again for `seconds`; `step` records its own
 * samples (requests whose answer is not 2xx count as errors).
 */
async function drive(connections: number, seconds: number, step: (agent: Agent, rng: Rng) => Promise<void>, seed: number): Promise<{ seconds: number; errors: number; loops: number }> {
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let errors = 0;
  let loops = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
      const rng = new Rng(seed * 1000 + i);
      try {
        while (performance.now() < deadline) {
          try {
            await step(agent, rng);
            loops++;
          } catch {
            errors++;
          }
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, errors, loops };
}

// ---------------------------------------------------------------------------------------------
// The dataset as the requests need it

interface Pinned {
  ns: string;
  name: string;
  rv: number;
  time: string;
}

interface Fixture {
  dataDir: string;
  manifest: DatasetManifest;
  token: string;
  head: number;
  firstTime: string;
  lastTime: string;
  namespaces: string[];
  all: { ns: string; name: string }[];
  /** LoadBalancer Services outside `default`: PUT body split around the ingress IP. */
  lb: { ns: string; name: string; before: string; after: string; pb: Buffer; pbAt: number }[];
  hot: Fixture['lb'][number];
  /** Revisions sampled over the whole log: a Service that existed at rv / time. */
  pinned: Pinned[];
  /** Times at which HEAVY_ADDRESS / ONCE_ADDRESS were held, and windows over HEAVY_ADDRESS. */
  heavyTimes: string[];
  onceTimes: string[];
  heavyWindows: [string, string][];
  heavyAssignments: number;
  /** Watch resume: from this resourceVersion, `catchUpWrites` watch events reach the head. */
  resumeFrom: number;
  catchUpWrites: number;
}

const IP_MARK = '100.199.199.199'; // the same length as every nextIP()
let ipCounter = 0;
/** Ingress IPs of one fixed length (15 characters), so a protobuf body can be patched in place. */
function nextIP(): string {
  const c = ipCounter++;
  return `100.${100 + ((c >> 14) & 63)}.${100 + ((c >> 7) & 127)}.${100 + (c & 127)}`;
}
/** Every nextIP() starts so; nothing else in a Service does (cluster IPs are 10.96.0.0/12). */
const IP_PREFIX = Buffer.from('100.1');

function readFixture(dataDir: string, manifest: DatasetManifest): Fixture {
  const { encodeKubeObject } = real.protobufObject();
  const db = new Database(join(dataDir, 'svctrail.db'), { readonly: true });
  const rows = db.prepare('SELECT namespace AS ns, name, object FROM services ORDER BY namespace, name').all() as { ns: string; name: string; object: string }[];
  const head = db.prepare('SELECT max(position) FROM events').pluck().get() as number;
  // Writes per Service, through the events' (namespace, name, position) index.
  const revisionsOf = db.prepare('SELECT count(*) FROM events WHERE namespace = ? AND name = ?').pluck();
  const lb: Fixture['lb'] = [];
  for (const row of rows) {
    const object = JSON.parse(row.object);
    if (object.spec.type !== 'LoadBalancer' || row.ns === 'default') continue;
    delete object.metadata.resourceVersion;
    object.status.loadBalancer = { ingress: [{ ip: IP_MARK, ipMode: 'VIP' }] };
    const [before, after] = JSON.stringify(object).split(IP_MARK);
    const pb = Buffer.from(encodeKubeObject('Service', object));
    lb.push({ ns: row.ns, name: row.name, before, after, pb, pbAt: pb.indexOf(IP_MARK, 0, 'latin1') });
  }
  // The hot Service: the LoadBalancer Service with the longest history (hot ones got 30% of writes).
  let hot = lb[0];
  let longest = -1;
  for (const candidate of lb.slice(0, 400)) {
    const n = revisionsOf.get(candidate.ns, candidate.name) as number;
    if (n > longest) [hot, longest] = [candidate, n];
  }
  // Revisions sampled uniformly by rowid: GET at R / asOf T of a Service that existed then.
  const maxRowid = db.prepare('SELECT max(rowid) FROM service_revisions').pluck().get() as number;
  const revision = db.prepare('SELECT namespace AS ns, name, resource_version AS rv, recorded_at AS time FROM service_revisions WHERE rowid = ?');
  const sampler = new Rng(99);
  const pinned: Pinned[] = [];
  for (let i = 0; pinned.length < 2000 && i < 20_000; i++) {
    const r = revision.get(1 + sampler.int(maxRowid)) as Pinned | undefined;
    if (r && r.ns !== 'default') pinned.push(r);
  }
  const intervalsOf = db.prepare('SELECT from_time AS fromTime FROM ingress_intervals WHERE address = ? ORDER BY from_resource_version').pluck();
  const heavy = intervalsOf.all(HEAVY_ADDRESS) as string[];
  const once = intervalsOf.all(ONCE_ADDRESS) as string[];
  const heavyTimes = Array.from({ length: Math.min(200, heavy.length) }, () => heavy[sampler.int(heavy.length)]);
  const heavyWindows = Array.from({ length: Math.min(200, heavy.length) }, (): [string, string] => {
    const i = sampler.int(Math.max(1, heavy.length - 10));
    return [heavy[i], heavy[Math.min(heavy.length - 1, i + 10)]];
  });
  const resumeFrom = Math.max(0, head - CATCH_UP_EVENTS);
  const catchUpWrites = db.prepare('SELECT count(*) FROM events WHERE position > ? AND position = resource_version').pluck().get(resumeFrom) as number;
  // recorded_at grows with position (and has no index): the first and the last row hold the bounds.
  const firstTime = db.prepare('SELECT recorded_at FROM events ORDER BY position LIMIT 1').pluck().get() as string;
  const lastTime = db.prepare('SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1').pluck().get() as string;
  db.close();
  const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split('\n')[0].split(',')[0];
  const namespaces = [...new Set(rows.filter((r) => r.ns !== 'default').map((r) => r.ns))];
  return {
    dataDir,
    manifest,
    token,
    head,
    firstTime,
    lastTime,
    namespaces,
    all: rows.map(({ ns, name }) => ({ ns, name })),
    lb,
    hot,
    pinned,
    heavyTimes,
    onceTimes: once,
    heavyWindows,
    heavyAssignments: heavy.length,
    resumeFrom,
    catchUpWrites,
  };
}

// ---------------------------------------------------------------------------------------------
// Cases

type Result = Record<string, unknown>;

interface CaseResult {
  id: string;
  title: string;
  svctrail?: Result;
  'floor-full'?: Result;
  floor?: Result;
  'svctrail-pg'?: Result;
  'svctrail-pg3'?: Result;
}

interface LoadCase {
  kind: 'load';
  id: string;
  title: string;
  connections: number;
  next: (rng: Rng, f: Fixture) => RequestSpec;
  /** A probe request; a non-2xx answer marks the case as not served by that target. */
  probe?: (f: Fixture) => string;
}

interface DriveCase {
  kind: 'drive';
  id: string;
  title: string;
  run: (server: Running, f: Fixture, seed: number) => Promise<Result>;
}

type CaseDef = LoadCase | DriveCase;

const statusPath = (s: { ns: string; name: string }) => `/api/v1/namespaces/${s.ns}/services/${s.name}/status`;
const jsonPut = (s: Fixture['lb'][number], ip = nextIP()): RequestSpec => ({ method: 'PUT', path: statusPath(s), body: s.before + ip + s.after });
const protobufPut = (s: Fixture['lb'][number], ip = nextIP()): RequestSpec => {
  const body = Buffer.from(s.pb);
  body.write(ip, s.pbAt, 'latin1');
  return { method: 'PUT', path: statusPath(s), body, contentType: PROTOBUF, accept: PROTOBUF };
};

const putMany = (connections: number, protobuf = false): LoadCase => ({
  kind: 'load',
  id: `put-many-${protobuf ? 'pb-' : ''}${connections}`,
  title: `PUT status${protobuf ? ' (protobuf)' : ''}, many Services, ${connections} conn`,
  connections,
  next: (rng, f) => (protobuf ? protobufPut : jsonPut)(f.lb[rng.int(f.lb.length)]),
});
const putHot = (connections: number): LoadCase => ({
  kind: 'load',
  id: `put-hot-${connections}`,
  title: `PUT status, one hot Service, ${connections} conn`,
  connections,
  next: (_rng, f) => jsonPut(f.hot),
});

const randomService = (rng: Rng, f: Fixture) => f.all[rng.int(f.all.length)];
const randomNamespace = (rng: Rng, f: Fixture) => f.namespaces[rng.int(f.namespaces.length)];
const randomRv = (rng: Rng, f: Fixture) => 1 + rng.int(f.head);
const randomTime = (rng: Rng, f: Fixture) => new Date(Date.parse(f.firstTime) + rng.next() * (Date.parse(f.lastTime) - Date.parse(f.firstTime))).toISOString();
const get = (path: string, accept?: string): RequestSpec => ({ method: 'GET', path, accept });

const READ_CASES: CaseDef[] = [
  {
    kind: 'load',
    id: 'get-10',
    title: 'GET one Service, 10 conn',
    connections: 10,
    next: (rng, f) => {
      const s = randomService(rng, f);
      return get(`/api/v1/namespaces/${s.ns}/services/${s.name}`);
    },
  },
  {
    kind: 'load',
    id: 'get-pb-10',
    title: 'GET one Service (protobuf), 10 conn',
    connections: 10,
    next: (rng, f) => {
      const s = randomService(rng, f);
      return get(`/api/v1/namespaces/${s.ns}/services/${s.name}`, PROTOBUF);
    },
  },
  {
    kind: 'load',
    id: 'list-10',
    title: 'LIST a namespace (100 Services), 10 conn',
    connections: 10,
    next: (rng, f) => get(`/api/v1/namespaces/${randomNamespace(rng, f)}/services`),
  },
];

/** Cases whose cost must not grow with the log: also run on the 10k dataset in the full run. */
const TIME_TRAVEL_CASES: CaseDef[] = [
  {
    kind: 'load',
    id: 'tt-get-exact-10',
    title: 'time travel: GET at a past RV (Exact), 10 conn',
    connections: 10,
    next: (rng, f) => {
      const p = f.pinned[rng.int(f.pinned.length)];
      return get(`/api/v1/namespaces/${p.ns}/services/${p.name}?resourceVersion=${p.rv}&resourceVersionMatch=Exact`);
    },
  },
  {
    kind: 'load',
    id: 'tt-get-asof-10',
    title: 'time travel: GET asOf a past time, 10 conn',
    connections: 10,
    next: (rng, f) => {
      const p = f.pinned[rng.int(f.pinned.length)];
      return get(`/api/v1/namespaces/${p.ns}/services/${p.name}?asOf=${encodeURIComponent(p.time)}`);
    },
  },
  {
    kind: 'load',
    id: 'tt-list-exact-10',
    title: 'time travel: LIST a namespace at a past RV (Exact), 10 conn',
    connections: 10,
    next: (rng, f) => get(`/api/v1/namespaces/${randomNamespace(rng, f)}/services?resourceVersion=${randomRv(rng, f)}&resourceVersionMatch=Exact`),
  },
  {
    kind: 'load',
    id: 'tt-list-asof-10',
    title: 'time travel: LIST a namespace asOf a past time, 10 conn',
    connections: 10,
    next: (rng, f) => get(`/api/v1/namespaces/${randomNamespace(rng, f)}/services?asOf=${encodeURIComponent(randomTime(rng, f))}`),
  },
  {
    kind: 'drive',
    id: 'tt-list-pages-10',
    title: 'time travel: every page of a LIST at a past RV (limit=10, continue), 10 conn',
    run: (server, f, seed) =>
      walkPages(server, f, seed, (rng) => `/api/v1/namespaces/${randomNamespace(rng, f)}/services?limit=10&resourceVersion=${randomRv(rng, f)}&resourceVersionMatch=Exact`),
  },
  {
    kind: 'drive',
    id: 'list-pages-10',
    title: 'every page of a LIST of a namespace (limit=10, continue), 10 conn',
    run: (server, f, seed) => walkPages(server, f, seed, (rng) => `/api/v1/namespaces/${randomNamespace(rng, f)}/services?limit=10`),
  },
  { kind: 'drive', id: 'watch-resume', title: 'watch resume from an old RV (JSON), 1 conn', run: (server, f) => watchResume(server, f, false) },
  { kind: 'drive', id: 'watch-resume-pb', title: 'watch resume from an old RV (protobuf), 1 conn', run: (server, f) => watchResume(server, f, true) },
];

const ownersAt = (address: string, times: (f: Fixture) => string[]) => (rng: Rng, f: Fixture) => {
  const list = times(f);
  return get(`${HISTORY}/ingressowners?address=${address}&at=${encodeURIComponent(list[rng.int(list.length)])}`);
};
const WHO_HAD_CASES: CaseDef[] = [
  {
    kind: 'load',
    id: 'history-owners-at-heavy-10',
    title: `history: ingressowners at T, an address assigned many times, 10 conn`,
    connections: 10,
    next: ownersAt(HEAVY_ADDRESS, (f) => f.heavyTimes),
    probe: (f) => `${HISTORY}/ingressowners?address=${HEAVY_ADDRESS}&at=${encodeURIComponent(f.heavyTimes[0] ?? f.lastTime)}`,
  },
  {
    kind: 'load',
    id: 'history-owners-at-once-10',
    title: `history: ingressowners at T, an address assigned once, 10 conn`,
    connections: 10,
    next: ownersAt(ONCE_ADDRESS, (f) => f.onceTimes),
    probe: (f) => `${HISTORY}/ingressowners?address=${ONCE_ADDRESS}&at=${encodeURIComponent(f.onceTimes[0] ?? f.lastTime)}`,
  },
  {
    kind: 'load',
    id: 'history-owners-window-10',
    title: 'history: ingressowners over a window (~10 holders), 10 conn',
    connections: 10,
    next: (rng, f) => {
      const [from, to] = f.heavyWindows[rng.int(f.heavyWindows.length)];
      return get(`${HISTORY}/ingressowners?address=${HEAVY_ADDRESS}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    },
  },
];

const HISTORY_CASES: CaseDef[] = [
  ...['changes', 'conditiontransitions', 'conditionsummaries', 'ingressintervals'].map(
    (kind): LoadCase => ({
      kind: 'load',
      id: `history-${kind}-10`,
      title: `history: ${kind} of one Service${kind === 'conditionsummaries' ? '' : ' (limit 50)'}, 10 conn`,
      connections: 10,
      next: (rng, f) => {
        const s = randomService(rng, f);
        return get(`${HISTORY}/namespaces/${s.ns}/services/${s.name}/${kind}${kind === 'conditionsummaries' ? '' : '?limit=50'}`);
      },
      probe: (f) => `${HISTORY}/namespaces/${f.hot.ns}/services/${f.hot.name}/${kind}?limit=1`,
    }),
  ),
  {
    kind: 'load',
    id: 'history-ingressconflicts-10',
    title: 'history: ingressconflicts of a namespace (limit 50), 10 conn',
    connections: 10,
    next: (rng, f) => get(`${HISTORY}/namespaces/${randomNamespace(rng, f)}/ingressconflicts?limit=50`),
    probe: (f) => `${HISTORY}/namespaces/${f.namespaces[0]}/ingressconflicts?limit=1`,
  },
  ...WHO_HAD_CASES,
  {
    kind: 'load',
    id: 'history-feed-2',
    title: `history: the feed after head−${CATCH_UP_EVENTS} to the head (NDJSON), 2 conn`,
    connections: 2,
    next: (_rng, f) => get(`${HISTORY}/feed?after=${f.resumeFrom}`),
    probe: (f) => `${HISTORY}/feed?after=${f.head}`,
  },
];

const WRITE_CASES: LoadCase[] = [putMany(1), putMany(16), putMany(64), putHot(1), putHot(16), putHot(64), putMany(1, true), putMany(16, true)];
/** The cases repeated on the 10k dataset in the full run. */
const FLAT_CASES: CaseDef[] = [...TIME_TRAVEL_CASES, ...WHO_HAD_CASES];
const FLAT_WRITE_CASES: LoadCase[] = [putMany(64), putHot(64)];

async function walkPages(server: Running, f: Fixture, seed: number, first: (rng: Rng) => string): Promise<Result> {
  const pages = new Samples();
  const walks = new Samples();
  let pageCount = 0;
  let badPages = 0;
  const walk = async (agent: Agent, rng: Rng) => {
    const t0 = performance.now();
    let path = first(rng);
    const base = path.slice(0, path.indexOf('?'));
    for (let n = 0; n < 1000; n++) {
      const a = await call(server, f.token, path, agent);
      if (a.status !== 200) {
        badPages++;
        throw new Error(`page answered ${a.status}`);
      }
      pages.push(a.ms);
      pageCount++;
      const token = JSON.parse(a.body.toString('utf8')).metadata?.continue as string | undefined;
      if (!token) break;
      path = `${base}?limit=10&continue=${encodeURIComponent(token)}`;
    }
    walks.push(performance.now() - t0);
  };
  const rng0 = new Rng(seed);
  await drive(10, WARMUP, (agent) => walk(agent, rng0), seed + 500);
  pages.length = 0;
  walks.length = 0;
  pageCount = 0;
  const d = await drive(10, DURATION, (agent, rng) => walk(agent, rng), seed);
  const p = pages.summary();
  const w = walks.summary();
  const out = { served: true, rps: pageCount / d.seconds, p50: p.p50, p99: p.p99, max: p.max, walks: w.n, walkP50: w.p50, walkP99: w.p99, pagesPerWalk: pageCount / Math.max(1, w.n), errors: d.errors, badPages };
  log(
    `  ${server.target.padEnd(10)} ${'pages'.padEnd(32)} ${out.rps.toFixed(0).padStart(7)} pages/s  p50 ${fmtMs(p.p50)}  p99 ${fmtMs(p.p99)} ms; ` +
      `${w.n} walks of ${out.pagesPerWalk.toFixed(1)} pages, p50 ${fmtMs(w.p50)} p99 ${fmtMs(w.p99)} ms${d.errors ? `, ${d.errors} errors` : ''}`,
  );
  return out;
}

/** Opens watches from `resumeFrom` one after the other: time to the first event and to the head. */
async function watchResume(server: Running, f: Fixture, protobuf: boolean): Promise<Result> {
  const first = new Samples();
  const all = new Samples();
  let incomplete = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      let seen = 0;
      let pending: Buffer = Buffer.alloc(0);
      let done = false;
      const req = httpsRequest(
        new URL(`/api/v1/services?watch=true&resourceVersion=${f.resumeFrom}`, server.url),
        {
          method: 'GET',
          headers: { authorization: `Bearer ${f.token}`, accept: protobuf ? `${PROTOBUF};stream=watch` : 'application/json' },
          rejectUnauthorized: false,
          agent: false,
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return reject(new Error(`watch answered ${res.statusCode}`));
          }
          const timer = setTimeout(() => finish(false), 60_000);
          const finish = (complete: boolean) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            if (complete) all.push(performance.now() - t0);
            else incomplete++;
            res.destroy();
            resolve();
          };
          res.on('data', (chunk: Buffer) => {
            pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
            const before = seen;
            if (protobuf) {
              let at = 0;
              while (pending.length - at >= 4) {
                const length = pending.readUInt32BE(at);
                if (pending.length - at - 4 < length) break;
                at += 4 + length;
                seen++;
              }
              pending = pending.subarray(at);
            } else {
              let nl: number;
              let at = 0;
              while ((nl = pending.indexOf(10, at)) >= 0) {
                at = nl + 1;
                seen++;
              }
              pending = pending.subarray(at);
            }
            if (before === 0 && seen > 0) first.push(performance.now() - t0);
            if (seen >= f.catchUpWrites) finish(true);
          });
          res.on('close', () => finish(false));
        },
      );
      req.on('error', (e) => (done ? resolve() : reject(e)));
      req.end();
    });
  const deadline = performance.now() + DURATION * 1000;
  let errors = 0;
  await once().catch(() => errors++); // warm-up
  first.length = 0;
  all.length = 0;
  do {
    await once().catch(() => errors++);
  } while (performance.now() < deadline);
  const a = first.summary();
  const b = all.summary();
  const out = { served: errors === 0 || b.n > 0, events: f.catchUpWrites, runs: b.n, p50: a.p50, p99: a.p99, catchUpP50: b.p50, catchUpP99: b.p99, incomplete, errors };
  log(
    `  ${server.target.padEnd(10)} ${(protobuf ? 'watch-resume-pb' : 'watch-resume').padEnd(32)} ${b.n} runs of ${f.catchUpWrites} events: ` +
      `first event p50 ${fmtMs(a.p50)} p99 ${fmtMs(a.p99)} ms, all p50 ${fmtMs(b.p50)} p99 ${fmtMs(b.p99)} ms${incomplete || errors ? ` (incomplete ${incomplete}, errors ${errors})` : ''}`,
  );
  return out;
}

async function runLoadCase(server: Running, f: Fixture, def: LoadCase, seed: number, opts: { warmup?: boolean; label?: string } = {}): Promise<Result> {
  if (def.probe) {
    const probe = await call(server, f.token, def.probe(f), false);
    if (probe.status < 200 || probe.status >= 300) {
      log(`  ${server.target.padEnd(10)} ${(opts.label ?? def.id).padEnd(32)} not served (${probe.status})`);
      return { served: false, probeStatus: probe.status };
    }
  }
  const rng = new Rng(seed);
  if (opts.warmup !== false) await load(server, f.token, def.connections, WARMUP, () => def.next(rng, f));
  // The measured window on the monotonic clock V8's profiler stamps its samples with (µs).
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const cpuBefore = machineCpu();
  const result = await load(server, f.token, def.connections, DURATION, () => def.next(rng, f));
  const cpuBusy = busyShare(cpuBefore, machineCpu());
  const windowUs = [fromUs, Number(process.hrtime.bigint() / 1000n)];
  // All the machine's CPU time per answered request: the load generator, the server(s) and PostgreSQL.
  const cpuMsPerRequest = cpuBusy !== undefined && result.rps > 0 ? (cpuBusy * cpus().length * 1000) / result.rps : undefined;
  log(
    `  ${server.target.padEnd(10)} ${(opts.label ?? def.id).padEnd(32)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${fmtMs(result.p50)}  p99 ${fmtMs(result.p99)} ms` +
      (cpuBusy !== undefined ? `  CPUs ${(cpuBusy * 100).toFixed(0)}% busy, ${fmtMs(cpuMsPerRequest)} CPU ms/req` : '') +
      (result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors}: ${JSON.stringify(result.statusCodes)})` : ''),
  );
  return { served: true, ...result, windowUs, cpuBusy, cpuMsPerRequest };
}

/** A write case, measured with the disk bytes written per write and the WAL left behind. */
async function runWriteCase(server: Running, f: Fixture, def: LoadCase, seed: number, variant: 'settled' | 'burst'): Promise<Result> {
  const pid = server.child.pid!;
  let pre: Result = {};
  if (variant === 'settled') {
    const s = await settle(server);
    pre = { settleMs: s.settleMs, settled: s.settled, walBeforeBytes: walSize(server.dataDir) };
  } else {
    const spread = new Rng(seed + 10_000);
    const burst = await load(server, f.token, 64, BURST, () => jsonPut(f.lb[spread.int(f.lb.length)]));
    pre = { burstRps: burst.rps, burstWrites: burst.ok, walBeforeBytes: walSize(server.dataDir) };
  }
  if (variant === 'settled') {
    // The warm-up's writes are not the case's: disk bytes and WAL are counted from after it.
    const warm = new Rng(seed + 20_000);
    await load(server, f.token, def.connections, WARMUP, () => def.next(warm, f));
    pre.walBeforeBytes = walSize(server.dataDir);
  }
  let walMax = walSize(server.dataDir);
  const poll = setInterval(() => (walMax = Math.max(walMax, walSize(server.dataDir))), 200);
  const written0 = diskWrites(pid);
  try {
    const r = await runLoadCase(server, f, def, seed, { warmup: false, label: `${def.id} ${variant === 'settled' ? '(settled)' : '(after burst)'}` });
    const written = diskWrites(pid) - written0;
    const walBytes = walSize(server.dataDir);
    log(
      `  ${''.padEnd(10)} ${''.padEnd(32)} WAL ${fmtMB(walBytes)} (max ${fmtMB(walMax)}), ${fmtNum(written / Math.max(1, r.ok as number))} disk bytes/write` +
        (variant === 'settled' ? `, settled after ${fmtNum(pre.settleMs)} ms${pre.settled ? '' : ' (gave up)'}` : `, burst ${fmtNum(pre.burstRps)} req/s`),
    );
    return { ...r, ...pre, walBytes, walMaxBytes: Math.max(walMax, walBytes), diskBytesWritten: written, diskBytesPerWrite: written / Math.max(1, r.ok as number) };
  } finally {
    clearInterval(poll);
  }
}

interface WatchOptions {
  /** Where the watchers connect (round-robin) and where the PUTs go; default every URL of the server. */
  watchUrls?: string[];
  putUrls?: string[];
  /**
   * Lag from the PUT's answer to the event (cross-replica delivery), rather than from the moment
   * the request was sent: the PUTs are sent by paced loops that note when each was answered.
   */
  fromAnswer?: boolean;
  label?: string;
}

/** 100 watchers on every Service; status PUTs at a fixed rate; delivery lag measured per event. */
async function runWatch(server: Running, f: Fixture, watchers: number, protobuf: boolean, opts: WatchOptions = {}): Promise<Result> {
  const watchUrls = opts.watchUrls ?? server.urls;
  const putUrls = opts.putUrls ?? server.urls;
  const warm = new Rng(8);
  await load(server, f.token, 16, WARMUP, () => jsonPut(f.lb[warm.int(f.lb.length)]), { overallRate: WATCH_WRITE_RATE, urls: putUrls });
  const head = (await getJson({ ...server, url: putUrls[0] }, f.token, '/api/v1/namespaces/default/services?limit=1')).json.metadata.resourceVersion as string;
  const sentAt = new Map<string, number>();
  const lag = new Samples();
  /** fromAnswer: (ip, arrival) pairs, set against the answers' times once the PUTs are over. */
  const arrivals: [string, number][] = [];
  const seenIPs = new Set<string>();
  let events = 0;
  let bytes = 0;
  let dropped = 0;
  const closers: (() => void)[] = [];
  // Cheap on purpose (the client shares the CPUs with the server): find the IP's bytes, no decoding.
  const record = (buffer: Buffer, start: number, end: number, now: number) => {
    events++;
    const at = buffer.indexOf(IP_PREFIX, start);
    if (at < 0 || at + IP_MARK.length > end) return;
    const ip = buffer.toString('latin1', at, at + IP_MARK.length);
    if (opts.fromAnswer) return void arrivals.push([ip, now]);
    const sent = sentAt.get(ip);
    if (sent !== undefined) {
      lag.push(now - sent);
      seenIPs.add(ip);
    }
  };
  await Promise.all(
    Array.from(
      { length: watchers },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const req = httpsRequest(
            new URL(`/api/v1/services?watch=true&resourceVersion=${head}`, watchUrls[i % watchUrls.length]),
            {
              method: 'GET',
              headers: { authorization: `Bearer ${f.token}`, accept: protobuf ? `${PROTOBUF};stream=watch` : 'application/json' },
              rejectUnauthorized: false,
              agent: false,
            },
            (res) => {
              let pending: Buffer = Buffer.alloc(0);
              let closing = false;
              closers.push(() => {
                closing = true;
                res.destroy();
              });
              res.on('data', (chunk: Buffer) => {
                const now = performance.now();
                bytes += chunk.length;
                pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
                let at = 0;
                if (protobuf) {
                  while (pending.length - at >= 4) {
                    const length = pending.readUInt32BE(at);
                    if (pending.length - at - 4 < length) break;
                    record(pending, at + 4, at + 4 + length, now);
                    at += 4 + length;
                  }
                } else {
                  let nl: number;
                  while ((nl = pending.indexOf(10, at)) >= 0) {
                    record(pending, at, nl, now);
                    at = nl + 1;
                  }
                }
                pending = pending.subarray(at);
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
    return jsonPut(s, ip);
  };
  const answeredAt = new Map<string, number>();
  const result = opts.fromAnswer ? await pacedPuts(putUrls, f, 16, DURATION, WATCH_WRITE_RATE, put, answeredAt) : await load(server, f.token, 16, DURATION, put, { overallRate: WATCH_WRITE_RATE, urls: putUrls });
  await sleep(1000); // let the last events arrive
  for (const close of closers) close();
  for (const [ip, at] of arrivals) {
    const answered = answeredAt.get(ip);
    if (answered === undefined) continue;
    // An event may reach a watcher before the PUT's answer reaches the client: that is no lag.
    lag.push(Math.max(0, at - answered));
    seenIPs.add(ip);
  }
  const sorted = lag.sorted();
  // Completeness of the fan-out: every write some watcher saw should reach all of them.
  const expected = seenIPs.size * watchers;
  const out = {
    watchers,
    protobuf,
    writeRate: WATCH_WRITE_RATE,
    writesPerSecond: result.rps,
    putP50: result.p50,
    putP99: result.p99,
    deliveredPerSecond: lag.length / result.seconds,
    delivered: lag.length,
    expected,
    deliveredFraction: expected ? lag.length / expected : NaN,
    lagP50: percentile(sorted, 50),
    lagP99: percentile(sorted, 99),
    watchersDropped: dropped,
    bytes,
    events,
  };
  log(
    `  ${server.target.padEnd(10)} ${(opts.label ?? `watch-${watchers}${protobuf ? '-pb' : ''}`).padEnd(32)} ${out.writesPerSecond.toFixed(0)} writes/s (p99 ${fmtMs(out.putP99)} ms) → ${out.deliveredPerSecond.toFixed(0)} deliveries/s ` +
      `(${(out.deliveredFraction * 100).toFixed(1)}%), lag p50 ${fmtMs(out.lagP50)} p99 ${fmtMs(out.lagP99)} ms, dropped ${dropped}`,
  );
  return out;
}

/**
 * `connections` loops sending the PUTs `next` makes, together at `rate` per second, round-robin
 * over `urls`; the time each was answered (2xx) is noted by its ingress IP.
 */
async function pacedPuts(urls: string[], f: Fixture, connections: number, seconds: number, rate: number, next: () => RequestSpec, answeredAt: Map<string, number>): Promise<LoadResult> {
  const latencies = new Samples();
  const statusCodes: Record<string, number> = {};
  const interval = (1000 * connections) / rate;
  let ok = 0;
  let loop = 0;
  const d = await drive(
    connections,
    seconds,
    async (agent) => {
      const url = urls[loop++ % urls.length];
      const t0 = performance.now();
      const spec = next();
      const ip = /100\.\d+\.\d+\.\d+/.exec(typeof spec.body === 'string' ? spec.body : '')?.[0];
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpsRequest(
          new URL(spec.path, url),
          { method: spec.method, headers: { authorization: `Bearer ${f.token}`, accept: 'application/json', 'content-type': 'application/json' }, rejectUnauthorized: false, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(spec.body);
      });
      const now = performance.now();
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status >= 200 && status < 300) {
        ok++;
        latencies.push(now - t0);
        if (ip) answeredAt.set(ip, now);
      }
      await sleep(Math.max(0, interval - (now - t0)));
    },
    17,
  );
  const s = latencies.summary();
  return { connections, seconds: d.seconds, ok, non2xx: Object.entries(statusCodes).filter(([c]) => Number(c) >= 300).reduce((a, [, n]) => a + n, 0), errors: d.errors, rps: ok / d.seconds, p50: s.p50, p99: s.p99, max: s.max, statusCodes };
}

// ---------------------------------------------------------------------------------------------
// Datasets, storage, the CLI

const CREDENTIALS = ['ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv', 'manifest.json', 'policy.jsonl'];

/** A fresh copy of a dataset's directory (credentialsOnly: without its database, for a replica on PostgreSQL). */
function scratchCopy(source: string, label: string, credentialsOnly = false): string {
  const dir = join(DATA_ROOT, `run-${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const file of credentialsOnly ? CREDENTIALS : ['svctrail.db', ...CREDENTIALS]) {
    if (existsSync(join(source, file))) copyFileSync(join(source, file), join(dir, file));
  }
  return dir;
}

function storage(dataDir: string, manifest: DatasetManifest): Result {
  const db = new Database(join(dataDir, 'svctrail.db'), { readonly: true });
  const bytes = statSync(join(dataDir, 'svctrail.db')).size;
  const events = db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  let eventTableBytes = NaN;
  let byObject: Record<string, number> = {};
  try {
    const rows = db.prepare('SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name ORDER BY size DESC').all() as { name: string; size: number }[];
    byObject = Object.fromEntries(rows.map((r) => [r.name, r.size]));
    eventTableBytes = byObject.events ?? NaN;
  } catch {
    // dbstat not compiled in
  }
  db.close();
  return { events, bytes, bytesPerEvent: bytes / events, eventTableBytes, eventTableBytesPerEvent: eventTableBytes / events, byObject, manifestEvents: manifest.events };
}

/**
 * What a target's writes added to its copy of the database: bytes of every table and index
 * (dbstat) and events, after the phase against the dataset it started from; per event.
 */
function writtenStorage(dataDir: string, base: Result): Result {
  const db = new Database(join(dataDir, 'svctrail.db'), { fileMustExist: true });
  try {
    const events = db.prepare('SELECT count(*) FROM events').pluck().get() as number;
    const rows = db.prepare('SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name').all() as { name: string; size: number }[];
    const before = (base.byObject ?? {}) as Record<string, number>;
    const byObject: Record<string, number> = {};
    for (const r of rows) if (r.size !== (before[r.name] ?? 0)) byObject[r.name] = r.size - (before[r.name] ?? 0);
    const bytes = Object.values(byObject).reduce((a, b) => a + b, 0);
    const added = events - (base.events as number);
    return { events: added, bytes, bytesPerEvent: added > 0 ? bytes / added : NaN, byObjectPerEvent: Object.fromEntries(Object.entries(byObject).map(([k, v]) => [k, added > 0 ? v / added : NaN])) };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    db.close();
  }
}

/** The profile svctrail's main thread wrote on exit (node names it CPU.<date>.<pid>.<thread>.<seq>.cpuprofile). */
function profileOf(pid: number): string | undefined {
  const files = readdirSync(PROFILE_DIR).filter((f) => f.includes(`.${pid}.0.`) && f.endsWith('.cpuprofile'));
  return files.length ? join(PROFILE_DIR, files.sort().at(-1)!) : undefined;
}

function runNode(script: string, argv: string[], label: string): Promise<{ code: number; stdout: string; stderr: string; ms: number; peakRssBytes: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [script, ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      if (stdout.length < 1_000_000) stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
    });
    child.on('exit', (code) => {
      children.delete(child);
      const ms = performance.now() - t0;
      const rss = Number(/bench-peak-rss (\d+)/.exec(stderr)?.[1] ?? NaN);
      if (code !== 0) log(`  ${label} exited with ${code}: ${stderr.slice(-2000)}`);
      resolve({ code: code ?? -1, stdout, stderr, ms, peakRssBytes: rss });
    });
  });
}

const cli = (argv: string[], label: string) => runNode(join(ROOT, 'bench', 'dist', 'cli-rss.js'), argv, label);

async function replayHelper(argv: string[]): Promise<Result> {
  const r = await runNode(join(ROOT, 'bench', 'dist', 'replay.js'), argv, `replay.js ${argv.join(' ')}`);
  if (r.code !== 0) throw new Error(`replay.js ${argv.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** replay, verify, export, import through the CLI, against the raw fold and the raw import. */
async function maintenance(source: string, label: string, events: number, scratch: string[]): Promise<Result> {
  const out: Result = {};
  const dir = scratchCopy(source, `${label}-maintenance`);
  scratch.push(dir);
  const rate = (ms: number) => events / (ms / 1000);
  out.rawFold = await replayHelper(['--db', join(source, 'svctrail.db'), '--mode', 'raw']);
  log(`  raw read-parse-fold: ${fmtNum((out.rawFold as Result).events)} events at ${fmtNum((out.rawFold as Result).eventsPerSecond)}/s, peak RSS ${fmtMB((out.rawFold as Result).peakRssBytes)}`);
  // The floor-full of a rebuild: the raw fold plus the rows svctrail's rebuild stores, indexes built after.
  out.rawRebuild = await replayHelper(['--db', join(source, 'svctrail.db'), '--mode', 'raw-rebuild', '--out', join(dir, 'raw-rebuild.db')]);
  rmSync(join(dir, 'raw-rebuild.db'), { force: true });
  log(`  raw rebuild (the same rows stored): ${fmtNum((out.rawRebuild as Result).eventsPerSecond)} events/s, peak RSS ${fmtMB((out.rawRebuild as Result).peakRssBytes)}`);
  for (const command of ['verify', 'replay'] as const) {
    const r = await cli([command, '--data-dir', dir], `svctrail ${command}`);
    out[command] = { ok: r.code === 0, ms: r.ms, eventsPerSecond: rate(r.ms), peakRssBytes: r.peakRssBytes, code: r.code };
    log(`  svctrail ${command.padEnd(7)} ${(r.ms / 1000).toFixed(1)} s = ${fmtNum(rate(r.ms))} events/s, peak RSS ${fmtMB(r.peakRssBytes)}${r.code ? ` (exit ${r.code})` : ''}`);
  }
  const file = join(dir, 'export.ndjson');
  const exported = await cli(['export', '--data-dir', dir, '--out', file], 'svctrail export');
  out.export = { ok: exported.code === 0, ms: exported.ms, eventsPerSecond: rate(exported.ms), peakRssBytes: exported.peakRssBytes, bytes: existsSync(file) ? statSync(file).size : NaN };
  log(`  svctrail export  ${(exported.ms / 1000).toFixed(1)} s = ${fmtNum(rate(exported.ms))} events/s`);
  if (exported.code === 0) {
    const target = join(dir, 'imported');
    mkdirSync(target, { mode: 0o700 });
    const r = await cli(['import', '--data-dir', target, file], 'svctrail import');
    out.import = { ok: r.code === 0, ms: r.ms, eventsPerSecond: rate(r.ms), peakRssBytes: r.peakRssBytes, code: r.code };
    log(`  svctrail import  ${(r.ms / 1000).toFixed(1)} s = ${fmtNum(rate(r.ms))} events/s, peak RSS ${fmtMB(r.peakRssBytes)}${r.code ? ` (exit ${r.code})` : ''}`);
    const imported = join(target, 'svctrail.db');
    if (r.code === 0) out.importBytesPerEvent = statSync(imported).size / events;
    rmSync(target, { recursive: true, force: true });
    out.rawImport = await replayHelper(['--mode', 'raw-import', '--file', file, '--out', join(dir, 'raw-import.db')]);
    rmSync(join(dir, 'raw-import.db'), { force: true });
    log(`  raw import:       ${fmtNum((out.rawImport as Result).eventsPerSecond)} events/s, peak RSS ${fmtMB((out.rawImport as Result).peakRssBytes)}`);
    // import's floor-full: the same events appended, then the same projection rows stored.
    out.rawImportRebuild = await replayHelper(['--mode', 'raw-import-rebuild', '--file', file, '--out', join(dir, 'raw-import-rebuild.db')]);
    rmSync(join(dir, 'raw-import-rebuild.db'), { force: true });
    const full = out.rawImportRebuild as Result;
    log(`  raw import + rebuild: ${fmtNum(full.eventsPerSecond)} events/s, ${fmtNum(full.bytesPerEvent)} bytes/event, peak RSS ${fmtMB(full.peakRssBytes)}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report

const fmtMs = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
const fmtNum = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const fmtMB = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${(v / 1024 / 1024).toFixed(v < 10 * 1024 * 1024 ? 1 : 0)} MB` : '–');
const fmtX = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${v.toFixed(2)}×` : '–');

interface Row {
  case: string;
  svctrail: string;
  /** floor-full and svctrail ÷ floor-full (informational: targets are judged against the floor). */
  floorFull: string;
  ratioFull: string;
  floor: string;
  ratio: string;
  target: string;
  met: string;
  /** Issue 11's target number (1–7) the row checks, for the summary. */
  goal?: number;
  values?: { svctrail?: number; floorFull?: number; ratioFull?: number; floor?: number; ratio?: number };
}

interface Check {
  text: string;
  goal: number;
  check: (s: number, fl: number, ratio: number) => boolean;
}

function ratioRow(label: string, s: number | undefined, fl: number | undefined, fmt: (v: unknown) => string, target?: Check, ff?: number): Row {
  const divide = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : undefined);
  const ratio = divide(s, fl);
  const ratioFull = divide(s, ff);
  const met = target ? (s !== undefined && fl !== undefined && ratio !== undefined ? (target.check(s, fl, ratio) ? 'yes' : 'NO') : '?') : '';
  return {
    case: label,
    svctrail: fmt(s),
    floorFull: ff === undefined ? '' : fmt(ff),
    ratioFull: ratioFull === undefined || !Number.isFinite(ratioFull) ? (ff === undefined ? '' : '–') : ratioFull.toFixed(2),
    floor: fmt(fl),
    ratio: ratio === undefined || !Number.isFinite(ratio) ? '–' : ratio.toFixed(2),
    target: target?.text ?? '',
    met,
    goal: target?.goal,
    values: { svctrail: s, floorFull: ff, ratioFull, floor: fl, ratio },
  };
}

/** A row whose target is on svctrail's value alone (the floor column is for reference). */
function absoluteRow(label: string, s: number | undefined, fl: number | undefined, fmt: (v: unknown) => string, target?: Check, ff?: number): Row {
  const row = ratioRow(label, s, fl, fmt, undefined, ff);
  if (target) {
    row.target = target.text;
    row.goal = target.goal;
    row.met = s === undefined || !Number.isFinite(s) ? '?' : target.check(s, fl ?? NaN, NaN) ? 'yes' : 'NO';
  }
  return row;
}

function table(rows: Row[]): string[] {
  const headers = ['case', 'svctrail', 'floor-full', 'floor', 'svctrail ÷ floor-full', 'svctrail ÷ floor', 'target (÷ floor)', 'met'];
  const cells = rows.map((r) => [r.case.replace(/\|/g, '\\|'), r.svctrail, r.floorFull, r.floor, r.ratioFull, r.ratio, r.target, r.met]);
  const left = (i: number) => i === 0 || i === 6;
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (left(i) ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  return [line(headers), `|${widths.map((w, i) => (left(i) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...cells.map(line)];
}

/**
 * The PostgreSQL table: svctrail-pg and svctrail-pg3 (on PG_DATASET) next to svctrail on SQLite
 * and the floor, from the same dataset where the run has the case (`same`), else from the main
 * dataset (`main`, marked).
 */
function pgTable(pgResults: Map<string, CaseResult>, same: Map<string, CaseResult>, main: Map<string, CaseResult>, mainKey: string, pg: Result, maint: Result | undefined): string[] {
  const num = (o: Result | undefined, k: string) => (o && typeof o[k] === 'number' && Number.isFinite(o[k]) ? (o[k] as number) : undefined);
  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b !== 0 ? (a / b).toFixed(2) : '–');
  const rows: string[][] = [];
  const add = (label: string, id: string, key: string, fmt: (v: unknown) => string, target = '', met?: (v: number) => boolean) => {
    const r = pgResults.get(id);
    if (!r) return;
    const ref = same.get(id)?.svctrail ? same.get(id) : main.get(id);
    const mark = ref && ref !== same.get(id) ? ` (${mainKey})` : '';
    const [p1, p3, s, f] = [num(r['svctrail-pg'], key), num(r['svctrail-pg3'], key), num(ref?.svctrail, key), num(ref?.floor, key)];
    const verdict = met ? (p3 === undefined ? '?' : met(p3) ? 'yes' : 'NO') : '';
    rows.push([label, fmt(p1), fmt(p3), s === undefined ? '–' : `${fmt(s)}${mark}`, f === undefined ? '–' : `${fmt(f)}${mark}`, ratio(p1, s), ratio(p3, s), ratio(p1, f), ratio(p3, f), target, verdict]);
  };
  const firstId = (id: string) => pgResults.get(id)?.title ?? id;
  /** Issue 25's throughput targets: one replica ≥ 0.5× SQLite, three ≥ 0.8× SQLite and ≥ 1.5× one. */
  const writeTargets = (id: string) => {
    const r = pgResults.get(id);
    const ref = same.get(id)?.svctrail ? same.get(id) : main.get(id);
    const [p1, p3, s] = [num(r?.['svctrail-pg'], 'rps'), num(r?.['svctrail-pg3'], 'rps'), num(ref?.svctrail, 'rps')];
    const checks = [p1 !== undefined && s ? p1 / s >= 0.5 : undefined, p3 !== undefined && s ? p3 / s >= 0.8 : undefined, p1 && p3 !== undefined ? p3 / p1 >= 1.5 : undefined];
    const verdict = checks.some((c) => c === undefined) ? '?' : checks.every(Boolean) ? 'yes' : 'NO';
    rows.push([`  pg3 ÷ pg: ${ratio(p3, p1)}`, '', '', '', '', '', '', '', '', 'pg ≥ 0.5× SQLite, pg3 ≥ 0.8× SQLite and ≥ 1.5× pg', verdict]);
  };
  for (const def of PG_WRITES) {
    const id = `${def.id}-settled`;
    add(`${firstId(id)}: req/s`, id, 'rps', fmtNum);
    if (def.id === 'put-many-16' || def.id === 'put-many-64') writeTargets(id);
    add('  p50 ms', id, 'p50', fmtMs);
    add('  p99 ms', id, 'p99', fmtMs);
    add('  machine CPUs busy %', id, 'cpuBusy', (v) => (typeof v === 'number' ? (v * 100).toFixed(0) : '–'));
    add('  machine CPU ms per write (all processes)', id, 'cpuMsPerRequest', fmtMs);
  }
  add('longest append-lock hold ms', 'append-lock-hold', 'maxMs', fmtMs);
  for (const def of PG_READS) {
    add(`${firstId(def.id)}: req/s`, def.id, 'rps', fmtNum);
    add('  p50 ms', def.id, 'p50', fmtMs);
    add('  p99 ms', def.id, 'p99', fmtMs);
  }
  const w = pgResults.get('watch-100');
  if (w) {
    add(`${w.title}: writes/s`, 'watch-100', 'writesPerSecond', fmtNum);
    add('  PUT p99 ms, watched', 'watch-100', 'putP99', fmtMs);
    add('  PUT p99 ms, unwatched (same rate)', 'watch-0', 'putP99', fmtMs);
    add('  delivered %', 'watch-100', 'deliveredFraction', (v) => (typeof v === 'number' ? (v * 100).toFixed(1) : '–'));
    add('  delivery lag p50 ms', 'watch-100', 'lagP50', fmtMs);
    add('  delivery lag p99 ms', 'watch-100', 'lagP99', fmtMs);
    add('  watchers dropped', 'watch-100', 'watchersDropped', (v) => String(v ?? '–'));
  }
  const c = pgResults.get('watch-cross');
  if (c) {
    add(`${c.title}: writes/s`, 'watch-cross', 'writesPerSecond', fmtNum);
    add('  delivered %', 'watch-cross', 'deliveredFraction', (v) => (typeof v === 'number' ? (v * 100).toFixed(1) : '–'), '100 (svctrail-pg3)', (v) => v >= 0.999);
    add('  delivery lag p50 ms', 'watch-cross', 'lagP50', fmtMs);
    add('  delivery lag p99 ms', 'watch-cross', 'lagP99', fmtMs, '≤ 1000 ms (issue 13 item 3)', (v) => v <= 1000);
    add('  watchers dropped', 'watch-cross', 'watchersDropped', (v) => String(v ?? '–'));
  }
  const imports = (pg.imports ?? {}) as Record<string, Result>;
  if (Object.keys(imports).length) {
    const [p1, p3] = [num(imports['svctrail-pg'], 'eventsPerSecond'), num(imports['svctrail-pg3'], 'eventsPerSecond')];
    const sqliteImport = maint && mainKey === PG_DATASET ? num(maint.import as Result | undefined, 'eventsPerSecond') : undefined;
    const rawImport = maint && mainKey === PG_DATASET ? num(maint.rawImport as Result | undefined, 'eventsPerSecond') : undefined;
    rows.push([`svctrail import of the ${PG_DATASET} export into an empty database: events/s (SQLite: svctrail import; floor: raw SQLite import)`, fmtNum(p1), fmtNum(p3), fmtNum(sqliteImport), fmtNum(rawImport), ratio(p1, sqliteImport), ratio(p3, sqliteImport), ratio(p1, rawImport), ratio(p3, rawImport), '', '']);
  }
  const headers = ['case', 'svctrail-pg', 'svctrail-pg3', 'svctrail (SQLite)', 'floor', 'pg ÷ SQLite', 'pg3 ÷ SQLite', 'pg ÷ floor', 'pg3 ÷ floor', 'target', 'met'];
  const cells = rows.map((r) => [r[0].replace(/\|/g, '\\|'), ...r.slice(1)]);
  const left = (i: number) => i === 0 || i === 9;
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (left(i) ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  return [
    `## PostgreSQL (${PG_DATASET} dataset; svctrail-pg3: three replicas on one database, the load spread over them)`,
    '',
    line(headers),
    `|${widths.map((w, i) => (left(i) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.map(line),
  ];
}

const GOALS: Record<number, string> = {
  1: 'status PUT ≥ 0.5× floor req/s, p99 ≤ 2× floor (settled and after a burst)',
  2: 'GET ≥ 0.8× floor, p99 ≤ 1.5×; LIST ≥ 0.5× floor',
  3: 'time travel & watch resume: p99 ≤ 2× floor; 1M within 1.25× of 10k',
  4: 'history: ≥ 0.5× floor, p99 ≤ 2× floor; who-had flat',
  5: 'watch fan-out: PUT p99 watched ≤ 1.25× unwatched; lag p99 ≤ 2× floor',
  6: 'replay, verify, import ≥ 0.5× raw; peak RSS ≤ 512 MB',
  7: 'bytes/event ≤ 1.5× floor event table; server RSS ≤ 256 MB',
};

function summary(rows: Row[]): string[] {
  const out = ['| target | met | worst |', '|:--|--:|:--|'];
  let context = '';
  const withContext = rows.map((r) => {
    if (!r.case.startsWith('  ')) context = r.case.replace(/: [^:]*$/, '');
    return { r, label: r.case.startsWith('  ') ? `${context}: ${r.case.trim()}` : r.case };
  });
  for (const goal of Object.keys(GOALS).map(Number)) {
    const checked = withContext.filter(({ r }) => r.goal === goal && (r.met === 'yes' || r.met === 'NO'));
    if (!checked.length) continue;
    const missed = checked.filter(({ r }) => r.met === 'NO');
    const worst = missed
      .map(({ r, label }) => ({ label, r, badness: r.values?.ratio !== undefined && Number.isFinite(r.values.ratio) ? Math.max(r.values.ratio, 1 / r.values.ratio) : 0 }))
      .sort((a, b) => b.badness - a.badness)[0];
    out.push(
      `| ${goal}. ${GOALS[goal]} | ${checked.length - missed.length}/${checked.length} | ${worst ? `${worst.label}: ${worst.r.svctrail} vs ${worst.r.floor} (${worst.r.ratio})${worst.r.ratioFull ? `; vs floor-full ${worst.r.floorFull} (${worst.r.ratioFull})` : ''}` : '–'} |`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

/** Per target: what its writes added to its copy of the main dataset (writtenStorage). */
const storageWritten: Partial<Record<Target, Result>> = {};

async function phase(
  target: Target,
  f: Fixture,
  source: string,
  label: string,
  defs: { reads: CaseDef[]; writes: LoadCase[]; watch: boolean | 'json'; base?: Result; settledOnly?: boolean; pgUrl?: string },
  results: Map<string, CaseResult>,
  scratch: string[],
): Promise<Result> {
  // On PostgreSQL each replica gets a copy of the credentials; the data is the database's.
  const replicas = target === 'svctrail-pg3' ? 3 : 1;
  const dirs = Array.from({ length: replicas }, (_, i) => scratchCopy(source, `${label}-${target}${i ? `-${i}` : ''}`, isPg(target)));
  const dir = dirs[0];
  scratch.push(...dirs);
  const t0 = performance.now();
  // The first replica applies the migrations; the others start once it serves.
  const first = await start(target, dir, defs.pgUrl);
  const others = await Promise.all(dirs.slice(1).map((d) => start(target, d, defs.pgUrl)));
  const server: Running = { ...first, urls: [first.url, ...others.map((o) => o.url)], replicas: others };
  log(` ${target} up at ${server.urls.join(', ')} after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const fx = { ...f, dataDir: dir };
  // The server's peak RSS during each case: VmHWM read after the case, then reset to the current
  // RSS (clear_refs 5), so the phase's peak names the case that reached it.
  const pid = server.child.pid!;
  let peak = { bytes: 0, during: '' };
  const casePeak = (title: string): number => {
    const bytes = memory(pid).peakRssBytes;
    if (bytes > peak.bytes) peak = { bytes, during: title };
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // not Linux, or not ours: the phase's peak is then VmHWM over the whole phase
    }
    return bytes;
  };
  const put = (id: string, title: string, value: Result) => {
    const entry = results.get(id) ?? { id, title };
    entry[target] = { ...value, serverPeakRssBytes: casePeak(title) };
    results.set(id, entry);
  };
  try {
    let seed = 1;
    for (const def of defs.reads) {
      seed++;
      if (!wanted(def.id)) continue;
      put(def.id, def.title, def.kind === 'load' ? await runLoadCase(server, fx, def, seed) : await def.run(server, fx, seed));
    }
    for (const def of defs.writes) {
      seed++;
      if (!wanted(def.id)) continue;
      put(`${def.id}-settled`, `${def.title}, settled`, await runWriteCase(server, fx, def, seed, 'settled'));
      // A profile is of one measurement: the settled one.
      if (!PROFILE && !defs.settledOnly) put(`${def.id}-burst`, `${def.title}, after a 64-conn burst`, await runWriteCase(server, fx, def, seed, 'burst'));
    }
    if (defs.watch === 'json') {
      // PostgreSQL: the unwatched and the JSON-watched rate, then (three replicas) the cross-replica lag.
      if (wanted('watch-100')) {
        await settle(server);
        const before = await runWatch(server, fx, 0, false);
        await settle(server);
        put('watch-100', `watch fan-out: ${WATCHERS} JSON watchers, ${WATCH_WRITE_RATE} PUT/s`, await runWatch(server, fx, WATCHERS, false));
        put('watch-0', `status PUTs at ${WATCH_WRITE_RATE}/s, 16 conn, no watcher`, { ...before, before });
      }
      if (target === 'svctrail-pg3' && wanted('watch-cross')) {
        await settle(server);
        put(
          'watch-cross',
          `watch across replicas: ${WATCHERS} JSON watchers on replicas 2 and 3, PUTs offered at ${WATCH_WRITE_RATE}/s to replica 1, lag from the PUT's answer`,
          await runWatch(server, fx, WATCHERS, false, { watchUrls: server.urls.slice(1), putUrls: [server.url], fromAnswer: true, label: 'watch-cross' }),
        );
      }
    } else if (defs.watch && wanted('watch-100')) {
      // No watcher before and after the watched runs; the better of the two is the baseline (the
      // stricter comparison, and whatever a previous case left behind weighs on neither side).
      await settle(server);
      const before = await runWatch(server, fx, 0, false);
      await settle(server);
      put('watch-100', `watch fan-out: ${WATCHERS} JSON watchers, ${WATCH_WRITE_RATE} PUT/s`, await runWatch(server, fx, WATCHERS, false));
      await settle(server);
      put('watch-100-pb', `watch fan-out: ${WATCHERS} protobuf watchers, ${WATCH_WRITE_RATE} PUT/s`, await runWatch(server, fx, WATCHERS, true));
      await settle(server);
      const after = await runWatch(server, fx, 0, false);
      const best = (before.putP99 as number) <= (after.putP99 as number) ? before : after;
      put('watch-0', `status PUTs at ${WATCH_WRITE_RATE}/s, 16 conn, no watcher`, { ...best, before, after });
    }
    if (isPg(target)) {
      // The longest any replica held the append lock over the whole phase (its own gauge).
      let longest: number | undefined;
      for (const url of server.urls) {
        const answer = await call({ ...server, url }, fx.token, '/metrics', false, 'text/plain');
        const held = /^svctrail_postgres_append_lock_hold_max_seconds (\S+)$/m.exec(answer.body.toString('utf8'));
        if (held) longest = Math.max(longest ?? 0, Number(held[1]));
      }
      if (longest !== undefined) put('append-lock-hold', 'longest append-lock hold (any replica, whole phase)', { maxMs: longest * 1000 });
    }
    const last = memory(pid);
    if (last.peakRssBytes > peak.bytes) peak = { bytes: last.peakRssBytes, during: 'between cases' };
    return { ...last, peakRssBytes: peak.bytes, peakDuring: peak.during, startupMs: performance.now() - t0, pid };
  } finally {
    await stop(server);
    if (defs.base && !isPg(target)) {
      const written = writtenStorage(dir, defs.base);
      storageWritten[target] = written;
      if (typeof written.bytesPerEvent === 'number') log(` ${target}: its writes added ${fmtNum(written.events)} events, ${fmtNum(written.bytesPerEvent)} database bytes per event`);
    }
    if (!args.keep) for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: svctrail-pg (one replica) and svctrail-pg3 (three replicas on one database)

/** A role that may CREATE DATABASE; the bench makes svctrail_bench_<pid> and drops it at the end. */
const PG_ADMIN_URL = process.env.SVCTRAIL_BENCH_POSTGRES ?? 'postgres://svctrail_test:svctrail_test@127.0.0.1:5432/postgres';
const PG_DATABASE = `svctrail_bench_${process.pid}`;
let pgDatabaseCreated = false;

// The PostgreSQL targets run on the 10k dataset, in the full run too. Measured (quick run, loaded
// 2-core machine): svctrail import into PostgreSQL ≈ 2k events/s (3–5k on a quiet one), so the 1M
// log would take 4–8 min per fresh database, twice (each target starts from its own), plus its
// export: 10–17 min before any case, where the whole PostgreSQL phase on 10k (import, startup and
// the cases at 8 s each) takes about 5–6 min. That is over the ~12 minutes a full run may grow by.
// Writes, GET, LIST and watch on PostgreSQL do not scan the log, and the SQLite figures beside
// them are of the same 10k dataset where the run has them (--quick, or the full run's 10k phase).
const PG_DATASET = '10k';
const PG_READS = [...READ_CASES, ...TIME_TRAVEL_CASES, ...HISTORY_CASES].filter((d) => ['get-10', 'list-10', 'tt-get-exact-10', 'history-changes-10'].includes(d.id));
const PG_WRITES = [putMany(1), putMany(16), putMany(64), putHot(1), putHot(16), putHot(64)];
const PG_CASE_IDS = [...PG_READS.map((d) => d.id), ...PG_WRITES.map((d) => d.id), 'watch-100', 'watch-cross', 'pg-import'];

const pgUrlOf = (database: string) => {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

async function pgAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty svctrail_bench_<pid> (dropped first if a previous target used it). */
async function createPgDatabase(): Promise<string> {
  await pgAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`);
    pgDatabaseCreated = true;
    await c.query(`CREATE DATABASE ${PG_DATABASE}`);
  });
  return pgUrlOf(PG_DATABASE);
}

async function dropPgDatabase(): Promise<void> {
  if (!pgDatabaseCreated) return;
  try {
    await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`));
    pgDatabaseCreated = false;
  } catch (error) {
    log(`note: could not drop the PostgreSQL database ${PG_DATABASE}: ${(error as Error).message}`);
  }
}

/**
 * Both PostgreSQL targets on the 10k dataset: the dataset exported once through the CLI, then per
 * target imported into a fresh database (timed) and served by one or three replicas. Undefined
 * when PostgreSQL cannot be reached (a note says so; the SQLite run goes on).
 */
async function pgPhase(set: { dir: string; manifest: DatasetManifest }, results: Map<string, CaseResult>, memoryOf: Record<string, Result>, scratch: string[]): Promise<Result | undefined> {
  try {
    await pgAdmin((c) => c.query('SELECT 1'));
  } catch (error) {
    log(`\nnote: PostgreSQL is not reachable at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message}): the PostgreSQL columns are skipped (.ci/start-postgres starts the local cluster; SVCTRAIL_BENCH_POSTGRES names another)`);
    return { skipped: (error as Error).message };
  }
  const events = set.manifest.events;
  log(`\n[PostgreSQL, ${PG_DATASET}] ${events.toLocaleString('en-US')} events exported once, imported into a fresh database per target`);
  const dir = scratchCopy(set.dir, `${PG_DATASET}-pg-export`);
  scratch.push(dir);
  const file = join(dir, 'export.ndjson');
  const exported = await cli(['export', '--data-dir', dir, '--out', file], 'svctrail export');
  if (exported.code !== 0) throw new Error(`svctrail export for PostgreSQL failed: ${exported.stderr.slice(-2000)}`);
  const fixture = readFixture(set.dir, set.manifest);
  const out: Result = { dataset: PG_DATASET, imports: {} };
  try {
    for (const target of PG_TARGETS.filter(runs)) {
      const url = await createPgDatabase();
      const imported = await cli(['import', '--storage', url, file], 'svctrail import --storage');
      if (imported.code !== 0) throw new Error(`svctrail import into PostgreSQL failed: ${imported.stderr.slice(-2000)}`);
      const rate = events / (imported.ms / 1000);
      (out.imports as Result)[target] = { ms: imported.ms, eventsPerSecond: rate, peakRssBytes: imported.peakRssBytes };
      log(` ${target}: svctrail import --storage ${(imported.ms / 1000).toFixed(1)} s = ${fmtNum(rate)} events/s, peak RSS ${fmtMB(imported.peakRssBytes)}`);
      const defs = { reads: PG_READS, writes: PG_WRITES, watch: 'json' as const, settledOnly: true, pgUrl: url };
      memoryOf[target] = await phase(target, fixture, set.dir, PG_DATASET, defs, results, scratch);
    }
  } finally {
    await dropPgDatabase();
  }
  return out;
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npx nest build` first');
  const startedAt = new Date();
  const mainKey = QUICK ? '10k' : (args.dataset ?? '1m');
  log(`svctrail benchmark (${QUICK ? 'quick' : 'full'}: ${DURATION} s per case, dataset ${mainKey}) on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
  const mainSet = await ensureDataset(mainKey, { log });
  const flatSet = QUICK ? undefined : await ensureDataset('10k', { log });

  const results = new Map<string, CaseResult>();
  const flatResults = new Map<string, CaseResult>();
  const pgResults = new Map<string, CaseResult>();
  let pg: Result | undefined;
  const memoryOf: Record<string, Result> = {};
  const scratch: string[] = [];
  let maint: Result | undefined;
  let mirror: MirrorFigures | undefined;
  const loadBefore = loadavg();
  let storageMain: Result;
  let storageFlat: Result | undefined;
  let fixture: Fixture;
  let profiled: { caseId: string; file: string; summary: ProfileSummary } | undefined;
  try {
    log(`\n[${mainKey}] ${mainSet.manifest.events.toLocaleString('en-US')} events, ${mainSet.manifest.liveServices.toLocaleString('en-US')} live Services`);
    storageMain = storage(mainSet.dir, mainSet.manifest);
    fixture = readFixture(mainSet.dir, mainSet.manifest);
    log(
      ` hot Service: ${fixture.hot.ns}/${fixture.hot.name}; ${fixture.lb.length} LoadBalancer Services take the PUTs; ${HEAVY_ADDRESS} assigned ${fixture.heavyAssignments} times, ` +
        `${ONCE_ADDRESS} ${fixture.onceTimes.length}; watch resume from ${fixture.resumeFrom} (${fixture.catchUpWrites} events)`,
    );
    const defs = { reads: [...READ_CASES, ...HISTORY_CASES, ...TIME_TRAVEL_CASES], writes: WRITE_CASES, watch: true, base: storageMain };
    if (PROFILE) mkdirSync(PROFILE_DIR, { recursive: true });
    if (runs('svctrail') || PROFILE) memoryOf.svctrail = await phase('svctrail', fixture, mainSet.dir, mainKey, defs, results, scratch);
    if (PROFILE) {
      const file = profileOf(memoryOf.svctrail.pid as number);
      const measured = results.get(PROFILE) ?? results.get(`${PROFILE}-settled`);
      const windowUs = measured?.svctrail?.windowUs as [number, number] | undefined;
      if (!file) log(`profile: no .cpuprofile of pid ${String(memoryOf.svctrail.pid)} in ${PROFILE_DIR}`);
      else if (!measured) log(`profile: no case with id ${PROFILE}`);
      else profiled = { caseId: PROFILE, file, summary: summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), 30, windowUs) };
    } else {
      // floor-full: the cases whose misses are read against the same storage work.
      if (runs('floor-full')) memoryOf['floor-full'] = await phase('floor-full', fixture, mainSet.dir, mainKey, { reads: READ_CASES, writes: WRITE_CASES, watch: true, base: storageMain }, results, scratch);
      if (runs('floor')) memoryOf.floor = await phase('floor', fixture, mainSet.dir, mainKey, defs, results, scratch);
    }

    if (!PROFILE && flatSet && (!ONLY || [...FLAT_CASES, ...FLAT_WRITE_CASES].some((d) => wanted(d.id)))) {
      log(`\n[10k] ${flatSet.manifest.events.toLocaleString('en-US')} events: the same requests on a short log`);
      storageFlat = storage(flatSet.dir, flatSet.manifest);
      const flatFixture = readFixture(flatSet.dir, flatSet.manifest);
      const flatDefs = { reads: FLAT_CASES, writes: FLAT_WRITE_CASES, watch: false };
      if (runs('svctrail')) await phase('svctrail', flatFixture, flatSet.dir, '10k', flatDefs, flatResults, scratch);
      if (runs('floor')) await phase('floor', flatFixture, flatSet.dir, '10k', flatDefs, flatResults, scratch);
    }

    const pgSet = flatSet ?? mainSet;
    if (!PROFILE && (!ONLY || PG_CASE_IDS.some(wanted)) && (runs('svctrail-pg') || runs('svctrail-pg3'))) pg = await pgPhase(pgSet, pgResults, memoryOf, scratch);

    if (!PROFILE && wanted('maintenance') && runs('svctrail')) {
      log(`\nmaintenance: the whole ${mainKey} log (${fmtNum(storageMain.events)} events)`);
      maint = await maintenance(mainSet.dir, mainKey, storageMain.events as number, scratch);
    }

    if (!PROFILE && wanted('mirror') && runs('svctrail')) {
      // Its own source and mirror (bench/mirror.ts): 10k Services, 500 status PUTs/s.
      log('\nmirror: a svctrail recording another (--mirror)');
      mirror = await mirrorPhase({ services: QUICK ? 2_000 : 10_000, rate: 500, seconds: QUICK ? 5 : 20 });
    }
  } finally {
    if (!args.keep) for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }

  // The table.
  const rows: Row[] = [];
  const BIG = mainKey.toUpperCase();
  const num = (o: Result | undefined, k: string) => (o && typeof o[k] === 'number' ? (o[k] as number) : undefined);
  const atLeast = (x: number, goal: number): Check => ({ text: `≥ ${x.toFixed(2)} × floor`, goal, check: (_s, _f, q) => q >= x });
  const atMost = (x: number, goal: number): Check => ({ text: `≤ ${x} × floor`, goal, check: (_s, _f, q) => q <= x });
  const notServed = (r: CaseResult) => r.svctrail?.served === false;
  const notServedRow = (r: CaseResult, goal: number): Row => ({
    case: r.title,
    svctrail: `not served (${String(r.svctrail?.probeStatus)})`,
    floorFull: '',
    ratioFull: '',
    floor: `${fmtNum(num(r.floor, 'rps'))} req/s, p99 ${fmtMs(num(r.floor, 'p99'))}`,
    ratio: '–',
    target: 'served',
    met: 'NO',
    goal,
  });
  /** floor-full's value, when it ran the case. */
  const ff = (r: CaseResult, k: string) => (r['floor-full'] ? num(r['floor-full'], k) ?? NaN : undefined);
  const loadRows = (r: CaseResult, rps?: Check, p99?: Check) => {
    rows.push(ratioRow(`${r.title}: req/s`, num(r.svctrail, 'rps'), num(r.floor, 'rps'), fmtNum, rps, ff(r, 'rps')));
    rows.push(ratioRow(`  p50 ms`, num(r.svctrail, 'p50'), num(r.floor, 'p50'), fmtMs, undefined, ff(r, 'p50')));
    rows.push(ratioRow(`  p99 ms`, num(r.svctrail, 'p99'), num(r.floor, 'p99'), fmtMs, p99, ff(r, 'p99')));
  };

  // 1. writes
  for (const def of WRITE_CASES) {
    for (const variant of ['settled', 'burst']) {
      const r = results.get(`${def.id}-${variant}`);
      if (!r) continue;
      loadRows(r, atLeast(0.5, 1), atMost(2, 1));
      rows.push(ratioRow(`  WAL file after the case`, num(r.svctrail, 'walBytes'), num(r.floor, 'walBytes'), fmtMB, undefined, ff(r, 'walBytes')));
      const growth = (t: Target) => (num(r[t], 'walMaxBytes') ?? NaN) - (num(r[t], 'walBeforeBytes') ?? NaN);
      rows.push(ratioRow(`  WAL file growth during the case`, growth('svctrail'), growth('floor'), fmtMB, undefined, r['floor-full'] ? growth('floor-full') : undefined));
      rows.push(ratioRow(`  disk bytes written per write`, num(r.svctrail, 'diskBytesPerWrite'), num(r.floor, 'diskBytesPerWrite'), fmtNum, undefined, ff(r, 'diskBytesPerWrite')));
      if (variant === 'settled') rows.push(ratioRow(`  ms of disk writes after the previous case`, num(r.svctrail, 'settleMs'), num(r.floor, 'settleMs'), fmtNum, undefined, ff(r, 'settleMs')));
    }
  }
  // 2. reads
  for (const def of READ_CASES) {
    const r = results.get(def.id);
    if (!r) continue;
    if (def.id.startsWith('get')) loadRows(r, atLeast(0.8, 2), atMost(1.5, 2));
    else loadRows(r, atLeast(0.5, 2));
  }
  // 3. time travel, watch resume (+ flatness against the 10k run)
  const flatRows = (def: CaseDef, keys: [string, string][], goal: number) => {
    const big = results.get(def.id);
    const small = flatResults.get(def.id);
    if (!big || !small) return;
    for (const [key, what] of keys) {
      rows.push(
        ratioRow(`  flat? svctrail ${what}, ${BIG} vs 10k (columns: ${BIG}, 10k)`, num(big.svctrail, key), num(small.svctrail, key), fmtMs, {
          text: `${BIG} ≤ 1.25 × 10k`,
          goal,
          check: (_b, _s, q) => q <= 1.25,
        }),
      );
    }
    rows.push(ratioRow(`  (floor ${keys[0][1]}, ${BIG} vs 10k)`, num(big.floor, keys[0][0]), num(small.floor, keys[0][0]), fmtMs));
  };
  for (const def of TIME_TRAVEL_CASES) {
    const r = results.get(def.id);
    if (!r) continue;
    if (notServed(r)) {
      rows.push(notServedRow(r, 3));
      continue;
    }
    if (def.id.startsWith('watch-resume')) {
      rows.push(ratioRow(`${r.title}: ms to the first event`, num(r.svctrail, 'p50'), num(r.floor, 'p50'), fmtMs));
      rows.push(ratioRow(`  p99 ms to the first event`, num(r.svctrail, 'p99'), num(r.floor, 'p99'), fmtMs, atMost(2, 3)));
      rows.push(ratioRow(`  ms to catch up ${fmtNum(num(r.svctrail, 'events'))} events, p50`, num(r.svctrail, 'catchUpP50'), num(r.floor, 'catchUpP50'), fmtMs));
      rows.push(ratioRow(`  ms to catch up, p99`, num(r.svctrail, 'catchUpP99'), num(r.floor, 'catchUpP99'), fmtMs, atMost(2, 3)));
      flatRows(def, [['p50', 'first event p50'], ['catchUpP50', 'catch-up p50']], 3);
      continue;
    }
    loadRows(r, undefined, atMost(2, 3));
    if (def.id.includes('pages')) rows.push(ratioRow(`  ms per walk of every page, p50`, num(r.svctrail, 'walkP50'), num(r.floor, 'walkP50'), fmtMs));
    flatRows(def, [['p50', 'p50 ms']], 3);
  }
  // 4. history
  for (const def of HISTORY_CASES) {
    const r = results.get(def.id);
    if (!r) continue;
    if (notServed(r)) {
      rows.push(notServedRow(r, 4));
      continue;
    }
    loadRows(r, atLeast(0.5, 4), atMost(2, 4));
  }
  const heavy = results.get('history-owners-at-heavy-10');
  const once = results.get('history-owners-at-once-10');
  if (heavy && once && !notServed(heavy)) {
    for (const key of ['p50', 'p99']) {
      rows.push(
        ratioRow(
          `flat? who had an address at T, assigned ${fmtNum(fixture!.heavyAssignments)}× vs once: svctrail ${key} ms (columns: many, once)`,
          num(heavy.svctrail, key),
          num(once.svctrail, key),
          fmtMs,
          key === 'p50' ? { text: 'many ≤ 1.25 × once', goal: 4, check: (_a, _b, q) => q <= 1.25 } : undefined,
        ),
      );
    }
    rows.push(ratioRow(`  (floor p50 ms, many vs once)`, num(heavy.floor, 'p50'), num(once.floor, 'p50'), fmtMs));
  }
  for (const def of WHO_HAD_CASES) flatRows(def, [['p50', 'p50 ms']], 4);
  // 5. watch
  const unwatched = results.get('watch-0');
  for (const id of ['watch-100', 'watch-100-pb']) {
    const w = results.get(id);
    if (!w) continue;
    rows.push(ratioRow(`${w.title}: writes/s`, num(w.svctrail, 'writesPerSecond'), num(w.floor, 'writesPerSecond'), fmtNum, undefined, ff(w, 'writesPerSecond')));
    rows.push(ratioRow(`  PUT p99 ms, watched`, num(w.svctrail, 'putP99'), num(w.floor, 'putP99'), fmtMs, undefined, ff(w, 'putP99')));
    if (unwatched) {
      rows.push(
        ratioRow(`  PUT p99 ms, unwatched (same rate; the better of before and after)`, num(unwatched.svctrail, 'putP99'), num(unwatched.floor, 'putP99'), fmtMs, undefined, ff(unwatched, 'putP99')),
      );
      const q = (t: Target) => (num(w[t], 'putP99') ?? NaN) / (num(unwatched[t], 'putP99') ?? NaN);
      rows.push(absoluteRow(`  PUT p99 watched ÷ unwatched`, q('svctrail'), q('floor'), fmtX, { text: '≤ 1.25', goal: 5, check: (s) => s <= 1.25 }, w['floor-full'] ? q('floor-full') : undefined));
    }
    const pct = (t: Target) => (w[t] ? (num(w[t], 'deliveredFraction') ?? NaN) * 100 : undefined);
    rows.push(ratioRow(`  delivered %`, pct('svctrail'), pct('floor'), (v) => (Number.isFinite(v) ? (v as number).toFixed(1) : '–'), undefined, pct('floor-full')));
    rows.push(ratioRow(`  delivery lag p50 ms`, num(w.svctrail, 'lagP50'), num(w.floor, 'lagP50'), fmtMs, undefined, ff(w, 'lagP50')));
    rows.push(ratioRow(`  delivery lag p99 ms`, num(w.svctrail, 'lagP99'), num(w.floor, 'lagP99'), fmtMs, atMost(2, 5), ff(w, 'lagP99')));
    rows.push(ratioRow(`  watchers dropped`, num(w.svctrail, 'watchersDropped'), num(w.floor, 'watchersDropped'), (v) => String(v ?? '–'), undefined, ff(w, 'watchersDropped')));
  }
  // 6. maintenance
  if (maint) {
    const raw = maint.rawFold as Result;
    for (const command of ['replay', 'verify'] as const) {
      const m = maint[command] as Result | undefined;
      if (!m) continue;
      rows.push(
        ratioRow(
          `svctrail ${command} of the whole log: events/s (floor: raw read-parse-fold; floor-full: raw rebuild, the same rows stored)${m.ok ? '' : ' — FAILED'}`,
          num(m, 'eventsPerSecond'),
          num(raw, 'eventsPerSecond'),
          fmtNum,
          atLeast(0.5, 6),
          maint.rawRebuild ? num(maint.rawRebuild as Result, 'eventsPerSecond') : undefined,
        ),
      );
      rows.push(absoluteRow(`  peak RSS`, num(m, 'peakRssBytes'), num(raw, 'peakRssBytes'), fmtMB, { text: '≤ 512 MB', goal: 6, check: (s) => s <= CLI_RSS_LIMIT }));
    }
    const imp = maint.import as Result | undefined;
    const rawImp = maint.rawImport as Result | undefined;
    if (imp) {
      const full = maint.rawImportRebuild as Result | undefined;
      rows.push(
        ratioRow(
          `svctrail import of the export: events/s (floor: raw parse-append-fold; floor-full: the same events appended, then the raw rebuild's rows)${imp.ok ? '' : ' — FAILED'}`,
          num(imp, 'eventsPerSecond'),
          num(rawImp, 'eventsPerSecond'),
          fmtNum,
          atLeast(0.5, 6),
          full ? num(full, 'eventsPerSecond') : undefined,
        ),
      );
      rows.push(absoluteRow(`  peak RSS`, num(imp, 'peakRssBytes'), num(rawImp, 'peakRssBytes'), fmtMB, { text: '≤ 512 MB', goal: 6, check: (s) => s <= CLI_RSS_LIMIT }));
    }
    const exp = maint.export as Result | undefined;
    if (exp) rows.push(ratioRow(`  (svctrail export: events/s)`, num(exp, 'eventsPerSecond'), undefined, fmtNum));
  }
  // 7. storage, memory
  rows.push(
    ratioRow(`database bytes/event, ${mainKey} (floor: the events table alone)`, num(storageMain!, 'bytesPerEvent'), num(storageMain!, 'eventTableBytesPerEvent'), fmtNum, atMost(1.5, 7)),
  );
  if (maint?.rawImportRebuild) {
    // Informational: the same log imported into a fresh file by svctrail and by import's floor-full
    // (every row svctrail stores, nothing else): what svctrail's own rows cost beyond the events.
    const imp = maint.importBytesPerEvent as number | undefined;
    rows.push(
      ratioRow(
        `  database bytes/event after an import of the ${mainKey} export (floor: the events table alone; floor-full: the file of the raw import + rebuild)`,
        imp,
        num(storageMain!, 'eventTableBytesPerEvent'),
        fmtNum,
        undefined,
        num(maint.rawImportRebuild as Result, 'bytesPerEvent'),
      ),
    );
  }
  if (storageWritten.svctrail) {
    // Informational: what the write cases' events cost each target (every table and index, from
    // dbstat, after the phase minus before). The target above is judged on the whole dataset.
    const per = (t: Target) => (storageWritten[t] ? num(storageWritten[t], 'bytesPerEvent') ?? NaN : undefined);
    rows.push(ratioRow(`database bytes/event added by the phase's writes, ${mainKey} (every table and index)`, per('svctrail'), per('floor'), fmtNum, undefined, per('floor-full')));
  }
  if (storageFlat) rows.push(ratioRow(`database bytes/event, 10k (floor: the events table alone)`, num(storageFlat, 'bytesPerEvent'), num(storageFlat, 'eventTableBytesPerEvent'), fmtNum));
  rows.push(
    absoluteRow(
      `peak RSS of the server (its whole ${mainKey} phase; floor-full runs fewer cases)${memoryOf.svctrail?.peakDuring ? `; svctrail's during: ${String(memoryOf.svctrail.peakDuring)}` : ''}`,
      num(memoryOf.svctrail, 'peakRssBytes'),
      num(memoryOf.floor, 'peakRssBytes'),
      fmtMB,
      { text: '≤ 256 MB', goal: 7, check: (s) => s <= RSS_LIMIT },
      memoryOf['floor-full'] ? num(memoryOf['floor-full'], 'peakRssBytes') : undefined,
    ),
  );
  // Informational: the three cases during which svctrail's RSS peaked highest.
  const peaks = [...results.values()]
    .map((r) => ({ title: r.title, s: r.svctrail ? num(r.svctrail, 'serverPeakRssBytes') : undefined, ff: r['floor-full'] ? num(r['floor-full'], 'serverPeakRssBytes') : undefined, fl: r.floor ? num(r.floor, 'serverPeakRssBytes') : undefined }))
    .filter((p) => typeof p.s === 'number')
    .sort((a, b) => b.s! - a.s!)
    .slice(0, 3);
  for (const p of peaks) rows.push(ratioRow(`  server peak RSS during: ${p.title}`, p.s, p.fl, fmtMB, undefined, p.ff));
  // Write flatness (informational: issue 11 states flatness for reads and history).
  for (const def of FLAT_WRITE_CASES) {
    const big = results.get(`${def.id}-settled`);
    const small = flatResults.get(`${def.id}-settled`);
    if (!big || !small) continue;
    for (const t of ['svctrail', 'floor'] as const) {
      rows.push(ratioRow(`${def.title}, settled, ${t}: req/s ${BIG} vs 10k (columns: ${BIG}, 10k)`, num(big[t], 'rps'), num(small[t], 'rps'), fmtNum));
    }
  }

  const tableLines = table(rows);
  const summaryLines = summary(rows);
  const pgLines = pg && !pg.skipped ? pgTable(pgResults, mainKey === PG_DATASET ? results : flatResults, results, mainKey, pg, maint) : pg?.skipped ? [`PostgreSQL columns skipped: ${String(pg.skipped)}`] : [];
  const profileLines = profiled
    ? [
        `## Where svctrail's CPU time goes: ${profiled.caseId}`,
        '',
        `Self time on the server's main thread during the measured part of the case (\`--profile ${profiled.caseId}\`; the whole profile: \`${profiled.file.slice(ROOT.length + 1)}\`, open it in Chrome DevTools or summarise it with \`node bench/dist/profile-summary.js FILE\`).`,
        '',
        ...formatProfileSummary(profiled.summary),
      ]
    : [];
  log('');
  for (const line of tableLines) log(line);
  if (pgLines.length) {
    log('');
    for (const line of pgLines) log(line);
  }
  log('');
  for (const line of summaryLines) log(line);
  if (profiled) {
    log('');
    for (const line of profileLines) log(line);
  }

  const busy = Math.max(loadBefore[0], loadavg()[0]);
  const out = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    mode: QUICK ? 'quick' : 'full',
    only: args.only,
    secondsPerCase: DURATION,
    machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version, platform: process.platform },
    datasets: { [mainKey]: { ...mainSet.manifest, storage: storageMain! }, ...(flatSet ? { '10k': { ...flatSet.manifest, storage: storageFlat } } : {}) },
    cases: Object.fromEntries(results),
    flat10k: Object.fromEntries(flatResults),
    postgres: pg ? { ...pg, cases: Object.fromEntries(pgResults) } : undefined,
    maintenance: maint,
    mirror,
    loadAverage: { before: loadBefore, after: loadavg() },
    memory: memoryOf,
    storageWritten,
    profile: profiled,
    rows: rows.map(({ values, ...r }) => ({ ...r, ...values })),
  };
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stem = `${startedAt.toISOString().replace(/[:.]/g, '-')}${QUICK ? '-quick' : ''}${PROFILE ? `-profile-${PROFILE}` : ''}`;
  writeFileSync(join(dir, `${stem}.json`), `${JSON.stringify(out, null, 2)}\n`);
  const md = [
    `# svctrail benchmark, ${out.mode} (${mainKey}${flatSet ? ' and 10k' : ''}), ${out.startedAt}`,
    '',
    `${DURATION} s per case on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; load average ${loadBefore[0].toFixed(2)} → ${loadavg()[0].toFixed(2)}` +
      (busy > 1 ? ' (other processes shared the CPUs: figures are noisy)' : '') +
      (args.only ? `; only ${args.only}` : '') +
      '. What each case and each floor does: bench/README.md.',
    '',
    '## Summary',
    '',
    ...summaryLines,
    '',
    '## Every case',
    '',
    ...tableLines,
    '',
    ...(pgLines.length ? [...pgLines, ''] : []),
    ...(mirror ? ['## Mirror (issue 24)', '', ...mirrorRows(mirror), ''] : []),
    ...(profiled ? [...profileLines, ''] : []),
  ].join('\n');
  writeFileSync(join(dir, `${stem}.md`), md);
  if (!PROFILE) writeFileSync(join(dir, 'latest.md'), md);
  if (busy > 1) log(`\nnote: load average was ${loadBefore[0].toFixed(2)} → ${loadavg()[0].toFixed(2)}: other processes shared the CPUs; figures are noisy`);
  log(`\nresults: ${join(dir, `${stem}.json`)}, ${stem}.md${PROFILE ? '' : ', latest.md'}  (total ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s)`);
}

main().catch(async (error: unknown) => {
  for (const c of children) c.kill('SIGTERM');
  await dropPgDatabase();
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
