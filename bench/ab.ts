// `npm run bench:ab -- --base REF`: svctrail built from a git ref (base) against this working tree
// (current), in one run, every figure measured on both builds interleaved, so machine noise weighs
// on both alike. Issue 46's measurement: "in the bench beside today's code, same run".
//
//   builds   : base checked out at its sha in a worktree outside the repository and built there
//              (run/ab-builds.ts; reused when that sha is built already); current is this tree as
//              `npm run bench:ab` built it, or `--current REF` built as base is.
//   storage  : each build generates the store with its own generator (bench/generate-data.ts of
//              its tree: its migrations, its write path), same seed and sizes (default 30,000
//              events over 300 Services, seed 11); all-in bytes (every file of the store:
//              svctrail.db, -wal, -shm, after PRAGMA wal_checkpoint(TRUNCATE)) per event; then
//              its own `svctrail compact --before <90% of the head>` on a copy (the newest 10% of
//              the history keeps its objects) and the bytes again. Each build's `svctrail verify`,
//              `replay`, `export` and `import` on a copy of its own store, interleaved (base,
//              current, then current, base), max(2, --repeat) runs each, each from a copy dropped
//              from the page cache; the median.
//   http     : both servers up at once (each on a fresh copy of its own store); every case of
//              run.ts's GET / LIST, history, time travel and status PUTs (settled and after a
//              64-connection burst), each on base and current in turn, --repeat runs (default 2)
//              in the order base, current, current, base, …; the same requests (seed) on both.
//              Reads first, then writes (so both stores have taken the same writes by then).
//
// Targets (issue 46): all-in ≤ 600 bytes/event on the store, ≤ 450 after compaction to its newest
// 10%; no path slower: every HTTP case ≥ 0.95× base's throughput and ≤ 1.1× its p99; replay,
// verify and import ≥ 0.9× base's events/s. Writes bench/results/<start>-ab.md and -ab.json.
//
// usage: node bench/dist/ab.js --base REF [--current REF] [--events N --services N --seed N | --dataset 1m]
//        [--only A,B] [--duration S] [--quick] [--repeat N] [--skip-http] [--skip-storage] [--keep]
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { DATA_ROOT, DATASETS, type DatasetManifest } from './generate-data';
import { ROOT, loadDistFrom } from './real';
import { args, DURATION, ONLY, QUICK, REPEATS, wanted, log } from './run/options';
import { type Running, children, settle, start, stop } from './run/processes';
import { type Fixture, readFixture } from './run/fixture';
import { type CaseDef, type LoadCase, type Result, EVENT_WRITE_CASES, HISTORY_CASES, READ_CASES, TIME_TRAVEL_CASES, WRITE_CASES, mergeRuns } from './run/cases';
import { runLoadCase, runWriteCase } from './run/case-runners';
import { cli, runNode, scratchCopy } from './run/storage-and-cli';
import { syncAndDrop } from './run/page-cache';
import { type LoadWindow, BUSY_LOAD, BUSY_RULE, busyMark, loadWindows, underLoadWatch } from './run/load-average';
import { getJson } from './run/load';
import { type Build, type Side, AB_DIR, describe, workingTree, worktreeBuild } from './run/ab-builds';
import { fmtMs, fmtNum, fmtMB } from './run/format';

const SIDES: Side[] = ['base', 'current'];
/** Run `run`'s order: base, current; then current, base (a drift over a case weighs on both alike). */
const order = (run: number): Side[] => (run % 2 ? ['current', 'base'] : ['base', 'current']);

/** Issue 46's storage targets (all-in bytes per event). */
const BYTES_PER_EVENT = 600;
const BYTES_PER_EVENT_COMPACTED = 450;
/** No path slower: HTTP throughput and p99 against base's; maintenance speed against base's. */
const MIN_THROUGHPUT = 0.95;
const MAX_P99 = 1.1;
const MIN_MAINTENANCE = 0.9;
/** The newest share of the history a compaction keeps its objects for. */
const KEPT_SHARE = 0.1;
/** Files of a data directory that are not the store. */
const NOT_STORE = new Set(['ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv', 'manifest.json', 'policy.jsonl', 'svctrail.lock', 'svctrail.replay.lock']);
const MAINTENANCE = ['verify', 'replay', 'export', 'import'] as const;
type Command = (typeof MAINTENANCE)[number];

const sizes = (() => {
  if (args.dataset) {
    const d = DATASETS[args.dataset];
    if (!d) throw new Error(`--dataset ${args.dataset}: one of ${Object.keys(DATASETS).join(', ')}`);
    return { label: args.dataset, events: d.events, services: d.services, namespaces: d.namespaces as number | undefined };
  }
  const events = Number(args.events ?? 30_000);
  return { label: events % 1000 ? String(events) : `${events / 1000}k`, events, services: Number(args.services ?? 300), namespaces: undefined as number | undefined };
})();
const SEED = Number(args.seed ?? 11);

const median = (values: number[]) => {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const num = (o: Result | undefined, k: string) => (o && typeof o[k] === 'number' && Number.isFinite(o[k]) ? o[k] : undefined);
const bySide = <T>(f: (side: Side) => T) => ({ base: f('base'), current: f('current') }) as Record<Side, T>;

/** Scratch folders (the stores and their copies, a copy of this tree's build), removed at the end unless --keep. */
const scratch: string[] = [];
const cleanUp = () => {
  if (!args.keep) for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const c of children) c.kill('SIGTERM');
    cleanUp();
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// Storage

/** Every file of the store after a TRUNCATE checkpoint (the connection still open: -wal and -shm are there). */
function allIn(dir: string, events: number): Result {
  const db = new Database(join(dir, 'svctrail.db'), { fileMustExist: true });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const files: Record<string, number> = {};
    for (const name of readdirSync(dir)) {
      const st = statSync(join(dir, name));
      if (st.isFile() && !NOT_STORE.has(name)) files[name] = st.size;
    }
    let byObject: Record<string, number> | undefined;
    try {
      const rows = db.prepare('SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name ORDER BY size DESC').all() as { name: string; size: number }[];
      byObject = Object.fromEntries(rows.map((r) => [r.name, r.size]));
    } catch {
      byObject = undefined; // dbstat not compiled in
    }
    const bytes = Object.values(files).reduce((a, b) => a + b, 0);
    return { events, bytes, bytesPerEvent: bytes / events, files, byObject };
  } finally {
    db.close();
  }
}

/** The store generated by `b`'s own generator into `dir`. */
async function generate(b: Build, dir: string): Promise<{ manifest: DatasetManifest; ms: number }> {
  rmSync(dir, { recursive: true, force: true });
  const argv = ['--out', dir, '--events', String(sizes.events), '--services', String(sizes.services), '--seed', String(SEED), ...(sizes.namespaces ? ['--namespaces', String(sizes.namespaces)] : [])];
  log(`${b.side}: generating ${fmtNum(sizes.events)} events over ${fmtNum(sizes.services)} Services (seed ${SEED}) with its own generator`);
  const r = await runNode(join(b.root, 'bench', 'dist', 'generate-data.js'), argv, `${b.side} generate-data`, { root: b.root, nodeFlags: ['--max-semi-space-size=64'] });
  if (r.code !== 0) throw new Error(`${b.side}'s generate-data failed (exit ${r.code}): ${r.stderr.slice(-2000)}`);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
  log(`  ${b.side}: ${fmtNum(manifest.events)} events in ${(r.ms / 1000).toFixed(1)} s`);
  return { manifest, ms: r.ms };
}

/** The log's head, from the store (the events' positions), else the manifest's event count. */
function headOf(dir: string, manifest: DatasetManifest): number {
  try {
    const db = new Database(join(dir, 'svctrail.db'), { readonly: true, fileMustExist: true });
    try {
      const head = db.prepare('SELECT max(position) FROM events').pluck().get();
      if (typeof head === 'number' && head > 0) return head;
    } finally {
      db.close();
    }
  } catch {
    // another schema: the manifest's count (each event is one position)
  }
  return manifest.events;
}

/** `b`'s `svctrail compact` to the newest 10% of the history, on a copy of its store; all-in bytes after. */
async function compactCopy(b: Build, store: string, manifest: DatasetManifest): Promise<Result> {
  const dir = scratchCopy(store, `ab-${b.side}-compact`);
  scratch.push(dir);
  const head = headOf(dir, manifest);
  const before = Math.floor(head * (1 - KEPT_SHARE));
  const r = await cli(['compact', '--before', String(before), '--data-dir', dir, '-o', 'json'], `${b.side} compact`, b.root);
  if (r.code !== 0) return { ok: false, error: r.stderr.slice(-1000), horizon: before };
  let report: Result;
  try {
    report = JSON.parse(r.stdout) as Result;
  } catch {
    report = { stdout: r.stdout.slice(-1000) };
  }
  const after = allIn(dir, manifest.events);
  log(`  ${b.side}: compact --before ${before} in ${(r.ms / 1000).toFixed(1)} s: ${fmtMB(after.bytes)} all-in, ${fmtNum(after.bytesPerEvent)} bytes/event`);
  return { ok: true, head, horizon: before, ms: r.ms, peakRssBytes: r.peakRssBytes, report, ...after };
}

/** Each build's verify, replay, export and import on a copy of its own store, interleaved, `runs` times each. */
async function maintenance(builds: Record<Side, Build>, stores: Record<Side, string>, events: Record<Side, number>): Promise<Record<Command, Record<Side, Result>>> {
  const dirs = bySide((side) => scratchCopy(stores[side], `ab-${side}-maintenance`));
  scratch.push(...Object.values(dirs));
  // Each command runs for seconds on the small store, and 2 runs measured the same code 0.88× apart: 3 by default.
  const runs = args.repeat ? Math.max(2, REPEATS) : 3;
  const out = {} as Record<Command, Record<Side, Result>>;
  for (const command of MAINTENANCE) {
    const samples = bySide((): Result[] => []);
    const { window } = await underLoadWatch(`maintenance: ${command}`, async () => {
      for (let run = 0; run < runs; run++) {
        for (const side of order(run)) {
          const dir = dirs[side];
          const file = join(dir, 'export.ndjson');
          const target = join(dir, `imported-${run}`);
          let argv: string[];
          if (command === 'export') {
            rmSync(file, { force: true });
            argv = ['export', '--data-dir', dir, '--out', file];
          } else if (command === 'import') {
            rmSync(target, { recursive: true, force: true });
            mkdirSync(target, { mode: 0o700 });
            argv = ['import', '--data-dir', target, file];
          } else {
            argv = [command, '--data-dir', dir];
          }
          // Each run reads its input from disk, as the first did.
          syncAndDrop(dir, log);
          const r = await cli(argv, `${side} ${command}`, builds[side].root);
          const rate = events[side] / (r.ms / 1000);
          samples[side].push({ ok: r.code === 0, code: r.code, ms: r.ms, eventsPerSecond: rate, peakRssBytes: r.peakRssBytes });
          log(
            `  ${side.padEnd(8)} ${command.padEnd(7)} run ${run + 1}/${runs}: ${(r.ms / 1000).toFixed(2)} s = ${fmtNum(rate)} events/s, peak RSS ${fmtMB(r.peakRssBytes)}${r.code ? ` (exit ${r.code})` : ''}`,
          );
          if (command === 'import') rmSync(target, { recursive: true, force: true });
        }
      }
    });
    out[command] = bySide((side) => {
      const list = samples[side];
      const ms = median(list.map((s) => s.ms as number));
      return {
        ok: list.every((s) => s.ok),
        ms,
        eventsPerSecond: events[side] / (ms / 1000),
        peakRssBytes: Math.max(...list.map((s) => s.peakRssBytes as number)),
        runs: list,
        ...(window.busy ? { busyLoad: window } : {}),
      };
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// HTTP

interface AbCase {
  id: string;
  title: string;
  write: boolean;
  base?: Result;
  current?: Result;
  busyLoad?: LoadWindow;
}

/** The cases compared: run.ts's GET / LIST, history and time travel, and the status PUTs (the Event writes when --only names them). */
const READS: CaseDef[] = [...READ_CASES, ...HISTORY_CASES, ...TIME_TRAVEL_CASES];
const WRITES: LoadCase[] = [...WRITE_CASES, ...(ONLY ? EVENT_WRITE_CASES : [])];

/** A case's throughput (higher is better) and p99 (lower is better), whatever kind it is. */
function figures(r: Result | undefined): { throughput?: number; unit: string; p99?: number; p99Label: string } {
  if (!r) return { unit: 'req/s', p99Label: 'p99 ms' };
  if (typeof r.catchUpP99 === 'number') {
    // Watch resumes one after the other: how many reached the head per second (mergeRuns keeps each run under `runs`).
    const each = Array.isArray(r.runs) ? (r.runs as Result[]).map((x) => x.runs as number) : [r.runs as number];
    return { throughput: median(each) / DURATION, unit: 'resumes/s', p99: num(r, 'catchUpP99'), p99Label: 'p99 ms to the head' };
  }
  if (typeof r.walks === 'number') return { throughput: num(r, 'rps'), unit: 'pages/s', p99: num(r, 'p99'), p99Label: 'p99 ms per page' };
  return { throughput: num(r, 'rps'), unit: 'req/s', p99: num(r, 'p99'), p99Label: 'p99 ms' };
}

function readFixtureOf(stores: Record<Side, string>, manifests: Record<Side, DatasetManifest>): Fixture {
  const errors: string[] = [];
  // What the requests pick from is read with this tree's bench code, which knows the current schema.
  for (const side of ['current', 'base'] as const) {
    try {
      return readFixture(stores[side], manifests[side]);
    } catch (error) {
      errors.push(`${side}'s store: ${(error as Error).message}`);
    }
  }
  throw new Error(`cannot read the fixture from either store: ${errors.join('; ')}`);
}

/** The bearer token the bench uses: the first line of the data directory's tokens.csv. */
const tokenOf = (dir: string) => readFileSync(join(dir, 'tokens.csv'), 'utf8').split('\n')[0].split(',')[0];

async function http(builds: Record<Side, Build>, stores: Record<Side, string>, manifests: Record<Side, DatasetManifest>, results: Map<string, AbCase>): Promise<Result> {
  const fixture = readFixtureOf(stores, manifests);
  log(`\nhttp: ${fixture.lb.length} LoadBalancer Services take the PUTs, hot ${fixture.hot.ns}/${fixture.hot.name}; ${DURATION} s per case, ${REPEATS} run(s) per build`);
  const servers = {} as Record<Side, Running>;
  const fx = {} as Record<Side, Fixture>;
  const notes: string[] = [];
  try {
    for (const side of SIDES) {
      const dir = scratchCopy(stores[side], `ab-${side}`);
      scratch.push(dir);
      const t0 = performance.now();
      servers[side] = await start(side, dir, undefined, builds[side].root);
      // Each generator issued its own credentials: each server is asked with its own store's token.
      fx[side] = { ...fixture, dataDir: dir, token: tokenOf(stores[side]) };
      log(` ${side} up at ${servers[side].url} after ${((performance.now() - t0) / 1000).toFixed(1)} s (${describe(builds[side])})`);
    }
    await Promise.all(SIDES.map((side) => settle(servers[side])));
    // The same history on both? The hot Service as each serves it.
    const hot = await Promise.all(SIDES.map((side) => getJson(servers[side], fx[side].token, `/api/v1/namespaces/${fixture.hot.ns}/services/${fixture.hot.name}`)));
    const key = (j: any) => JSON.stringify([j?.metadata?.uid, j?.metadata?.resourceVersion, j?.status]);
    if (hot.some((h) => h.status !== 200) || key(hot[0].json) !== key(hot[1].json)) {
      const note = `the two stores differ: the hot Service answers ${hot.map((h, i) => `${SIDES[i]} ${h.status} ${key(h.json).slice(0, 200)}`).join(' / ')}`;
      notes.push(note);
      log(` note: ${note}`);
    }
    const record = (id: string, title: string, write: boolean, runs: Record<Side, Result[]>, window: LoadWindow) => {
      results.set(id, { id, title, write, base: mergeRuns(runs.base), current: mergeRuns(runs.current), ...(window.busy ? { busyLoad: window } : {}) });
    };
    let seed = 1;
    for (const def of READS) {
      seed++;
      if (!wanted(def.id)) continue;
      const runs = bySide((): Result[] => []);
      const { window } = await underLoadWatch(`http ${def.id}`, async () => {
        for (let run = 0; run < REPEATS; run++) {
          for (const side of order(run)) {
            runs[side].push(
              def.kind === 'load' ? await runLoadCase(servers[side], fx[side], def, seed, { label: `${def.id} run ${run + 1}/${REPEATS}` }) : await def.run(servers[side], fx[side], seed),
            );
          }
        }
      });
      record(def.id, def.title, false, runs, window);
    }
    for (const [index, def] of WRITES.entries()) {
      if (!wanted(def.id)) continue;
      const seedOf = 1000 + index;
      if (def.prepare) for (const side of SIDES) await def.prepare(servers[side], fx[side]);
      for (const variant of ['settled', 'burst'] as const) {
        const runs = bySide((): Result[] => []);
        const { window } = await underLoadWatch(`http ${def.id}-${variant}`, async () => {
          for (let run = 0; run < REPEATS; run++) {
            for (const side of order(run)) {
              const other = servers[side === 'base' ? 'current' : 'base'];
              runs[side].push(await runWriteCase(servers[side], fx[side], def, seedOf, variant, { quiet: [other], run: `${run + 1}/${REPEATS}` }));
            }
          }
        });
        record(`${def.id}-${variant}`, `${def.title}, ${variant === 'settled' ? 'settled' : 'after a 64-conn burst'}`, true, runs, window);
      }
    }
  } finally {
    for (const side of SIDES) if (servers[side]) await stop(servers[side]);
  }
  return { notes, fixture: { hot: `${fixture.hot.ns}/${fixture.hot.name}`, lb: fixture.lb.length, head: fixture.head } };
}

// ---------------------------------------------------------------------------------------------
// The report

interface Row {
  metric: string;
  base: string;
  current: string;
  ratio: string;
  target: string;
  met: string;
  values?: { base?: number; current?: number; ratio?: number };
  /** Judged on current's value alone (the summary quotes it, not the ratio). */
  absolute?: boolean;
}

const ratioOf = (b: number | undefined, c: number | undefined) => (b !== undefined && c !== undefined && Number.isFinite(b) && Number.isFinite(c) && b !== 0 ? c / b : undefined);
const withSpread = (fmt: (v: unknown) => string, v: number | undefined, range: [number, number] | undefined) =>
  range && v !== undefined && range[0] !== range[1] ? `${fmt(v)} (${fmt(range[0])}–${fmt(range[1])})` : fmt(v);

/** A row judged on current ÷ base (`least`: at least that ratio; else at most `most`). */
function compared(
  metric: string,
  b: number | undefined,
  c: number | undefined,
  fmt: (v: unknown) => string,
  judge?: { least?: number; most?: number },
  spread?: Record<Side, [number, number] | undefined>,
): Row {
  const ratio = ratioOf(b, c);
  const target = judge?.least !== undefined ? `≥ ${judge.least.toFixed(2)}× base` : judge?.most !== undefined ? `≤ ${judge.most.toFixed(2)}× base` : '';
  let met = !judge ? '' : ratio === undefined ? '?' : (judge.least !== undefined ? ratio >= judge.least : ratio <= judge.most!) ? 'yes' : 'NO';
  // A miss whose two builds' runs overlap (min–max) is within this run's own noise: said so, still a miss.
  const [rb, rc] = [spread?.base, spread?.current];
  if (met === 'NO' && rb && rc && rb[0] <= rc[1] && rc[0] <= rb[1]) met = 'NO (runs overlap)';
  return {
    metric,
    base: withSpread(fmt, b, spread?.base),
    current: withSpread(fmt, c, spread?.current),
    ratio: ratio === undefined ? '–' : ratio.toFixed(2),
    target,
    met,
    values: { base: b, current: c, ratio },
  };
}

/** A row judged on current's value alone (issue 46's absolute storage targets). */
function absolute(metric: string, b: number | undefined, c: number | undefined, fmt: (v: unknown) => string, most: number, unit: string): Row {
  const row = compared(metric, b, c, fmt);
  row.target = `≤ ${fmt(most)} ${unit} (issue 46)`;
  row.met = c === undefined ? '?' : c <= most ? 'yes' : 'NO';
  row.absolute = true;
  return row;
}

function table(rows: Row[]): string[] {
  const headers = ['metric', 'base', 'current', 'ratio (current ÷ base)', 'target', 'met?'];
  const cells = rows.map((r) => [r.metric.replace(/\|/g, '\\|'), r.base, r.current, r.ratio, r.target, r.met]);
  const left = (i: number) => i === 0 || i === 4;
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (left(i) ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  return [line(headers), `|${widths.map((w, i) => (left(i) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...cells.map(line)];
}

function rowsOf(storage: Record<Side, Result> | undefined, compacted: Record<Side, Result> | undefined, maint: Record<Command, Record<Side, Result>> | undefined, cases: Map<string, AbCase>): Row[] {
  const rows: Row[] = [];
  const bytes = (v: unknown) => fmtNum(v);
  if (storage) {
    rows.push(
      absolute(
        `all-in database bytes/event, ${sizes.label} store (every file: svctrail.db, -wal, -shm after wal_checkpoint(TRUNCATE))`,
        num(storage.base, 'bytesPerEvent'),
        num(storage.current, 'bytesPerEvent'),
        bytes,
        BYTES_PER_EVENT,
        'B/event',
      ),
    );
    rows.push(compared(`  all-in bytes`, num(storage.base, 'bytes'), num(storage.current, 'bytes'), fmtMB));
    rows.push(compared(`  generated with its own bench:data: events/s`, num(storage.base, 'generationEventsPerSecond'), num(storage.current, 'generationEventsPerSecond'), fmtNum));
  }
  if (compacted) {
    const ok = (side: Side) => (compacted[side].ok ? undefined : ' — FAILED');
    rows.push(
      absolute(
        `all-in database bytes/event after svctrail compact to the newest 10% (--before ${String(compacted.current.horizon ?? compacted.base.horizon)})${ok('base') ?? ok('current') ?? ''}`,
        num(compacted.base, 'bytesPerEvent'),
        num(compacted.current, 'bytesPerEvent'),
        bytes,
        BYTES_PER_EVENT_COMPACTED,
        'B/event',
      ),
    );
    rows.push(compared(`  all-in bytes`, num(compacted.base, 'bytes'), num(compacted.current, 'bytes'), fmtMB));
    rows.push(
      compared(`  svctrail compact: s (the command, start to exit)`, (num(compacted.base, 'ms') ?? NaN) / 1000, (num(compacted.current, 'ms') ?? NaN) / 1000, (v) =>
        typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : '–',
      ),
    );
  }
  if (maint) {
    for (const command of MAINTENANCE) {
      const m = maint[command];
      const failed = !m.base.ok || !m.current.ok ? ` — FAILED (${SIDES.filter((s) => !m[s].ok).join(', ')})` : '';
      const spread = bySide((side) => {
        const v = (m[side].runs as Result[]).map((r) => r.eventsPerSecond as number);
        return [Math.min(...v), Math.max(...v)] as [number, number];
      });
      rows.push(
        compared(
          `svctrail ${command} of the ${sizes.label} store: events/s (median of ${(m.base.runs as Result[]).length}, start to exit)${failed}${busyMark(m.current.busyLoad as LoadWindow | undefined)}`,
          num(m.base, 'eventsPerSecond'),
          num(m.current, 'eventsPerSecond'),
          fmtNum,
          command === 'export' ? undefined : { least: MIN_MAINTENANCE },
          spread,
        ),
      );
      rows.push(compared(`  peak RSS`, num(m.base, 'peakRssBytes'), num(m.current, 'peakRssBytes'), fmtMB));
    }
  }
  for (const c of cases.values()) {
    const b = figures(c.base);
    const cur = figures(c.current);
    const notServed = c.base?.served === false || c.current?.served === false;
    if (notServed) {
      rows.push({
        metric: `${c.title}${busyMark(c.busyLoad)}`,
        base: c.base?.served === false ? 'not served' : '',
        current: c.current?.served === false ? 'not served' : '',
        ratio: '–',
        target: 'served',
        met: c.current?.served === false ? 'NO' : '?',
      });
      continue;
    }
    const spreadOf = (key: string) => bySide((side) => (c[side]?.spread as Record<string, [number, number]> | undefined)?.[key]);
    const failures = (side: Side) => (num(c[side], 'non2xx') ?? 0) + (num(c[side], 'errors') ?? 0) + (num(c[side], 'badPages') ?? 0) + (num(c[side], 'incomplete') ?? 0);
    const failed = failures('base') || failures('current') ? ` (failed requests: base ${failures('base')}, current ${failures('current')})` : '';
    const throughputKey = b.unit === 'resumes/s' ? 'runs' : 'rps';
    const tSpread = b.unit === 'resumes/s' ? undefined : spreadOf(throughputKey);
    rows.push(compared(`${c.title}: ${b.unit}${failed}${busyMark(c.busyLoad)}`, b.throughput, cur.throughput, fmtNum, { least: MIN_THROUGHPUT }, tSpread));
    rows.push(compared(`  ${b.p99Label}`, b.p99, cur.p99, fmtMs, { most: MAX_P99 }, spreadOf(b.unit === 'resumes/s' ? 'catchUpP99' : 'p99')));
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!args.base) throw new Error('usage: npm run bench:ab -- --base <git ref> [--current <git ref>] [--events N] [--only A,B] [--duration S] [--skip-http] [--skip-storage]');
  const startedAt = new Date();
  const loadBefore = loadavg();
  log(`svctrail A/B bench on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; worktrees in ${AB_DIR}`);
  const builds: Record<Side, Build> = {
    base: worktreeBuild('base', args.base, log),
    current: args.current ? worktreeBuild('current', args.current, log) : workingTree('current', log),
  };
  for (const side of SIDES) if (builds[side].temporary) scratch.push(builds[side].root);
  for (const side of SIDES) log(`${side}: ${describe(builds[side])}, ${builds[side].root}`);
  // The fixture's protobuf bodies come from current's codec.
  loadDistFrom(builds.current.root);

  const work = join(DATA_ROOT, `ab-${process.pid}`);
  scratch.push(work);
  const stores = bySide((side) => join(work, side));
  const manifests = {} as Record<Side, DatasetManifest>;
  const storage = {} as Record<Side, Result>;
  let compacted: Record<Side, Result> | undefined;
  let maint: Record<Command, Record<Side, Result>> | undefined;
  let httpInfo: Result | undefined;
  const cases = new Map<string, AbCase>();
  const notes: string[] = [...builds.base.notes, ...builds.current.notes];
  try {
    // 1. Each build's own store: same generator arguments, its own code.
    log(`\nstorage: the ${sizes.label} store (${fmtNum(sizes.events)} events, ${fmtNum(sizes.services)} Services, seed ${SEED}), made by each build`);
    await underLoadWatch('storage: generate', async () => {
      for (const side of SIDES) {
        const { manifest, ms } = await generate(builds[side], stores[side]);
        manifests[side] = manifest;
        storage[side] = { ...allIn(stores[side], manifest.events), generationMs: ms, generationEventsPerSecond: manifest.events / (ms / 1000), manifest };
        log(`  ${side}: ${fmtMB(storage[side].bytes)} all-in = ${fmtNum(storage[side].bytesPerEvent)} bytes/event (${Object.keys(storage[side].files as object).join(', ')})`);
      }
    });
    const same = (k: keyof DatasetManifest) => JSON.stringify(manifests.base[k]) === JSON.stringify(manifests.current[k]);
    if (!same('events') || !same('writes') || !same('liveServices') || !same('counts')) {
      const note = `the two generators made different histories: base ${manifests.base.events} events / ${manifests.base.writes} writes, current ${manifests.current.events} / ${manifests.current.writes}`;
      notes.push(note);
      log(`note: ${note}`);
    }
    const events = bySide((side) => manifests[side].events);
    if (!args['skip-storage']) {
      log(`\ncompaction: each build's svctrail compact to the newest ${KEPT_SHARE * 100}% of its store`);
      compacted = {} as Record<Side, Result>;
      await underLoadWatch('storage: compact', async () => {
        for (const side of SIDES) compacted![side] = await compactCopy(builds[side], stores[side], manifests[side]);
      });
      log(`\nmaintenance: verify, replay, export, import of each build's store, interleaved`);
      maint = await maintenance(builds, stores, events);
    }
    if (!args['skip-http']) httpInfo = await http(builds, stores, manifests, cases);
    if (httpInfo?.notes) notes.push(...(httpInfo.notes as string[]));
  } finally {
    cleanUp();
  }

  const rows = rowsOf(storage.base ? storage : undefined, compacted, maint, cases);
  const judged = rows.filter((r) => r.met === 'yes' || r.met.startsWith('NO'));
  const missed = judged.filter((r) => r.met.startsWith('NO'));
  const overlapping = missed.filter((r) => r.met !== 'NO');
  const busy = loadWindows.filter((w) => w.busy);
  const tableLines = table(rows);
  const runLine =
    `base ${describe(builds.base)}; current ${describe(builds.current)}. ${sizes.label} store (${fmtNum(sizes.events)} events, ${fmtNum(sizes.services)} Services, seed ${SEED}); ` +
    `${args['skip-http'] ? 'no HTTP cases' : `${DURATION} s per HTTP case, ${REPEATS} run(s) per build`}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ` +
    `load average ${loadBefore[0].toFixed(2)} → ${loadavg()[0].toFixed(2)}${args.only ? `; only ${args.only}` : ''}`;
  // A sub-row (p99, peak RSS) is named after the row above it in the summary.
  let context = '';
  const named = new Map(
    rows.map((r) => {
      if (!r.metric.startsWith('  ')) context = r.metric.replace(/ \[busy[^\]]*\]$/, '').replace(/: [^:]*$/, '');
      return [r, r.metric.startsWith('  ') ? `${context}: ${r.metric.trim()}` : r.metric.replace(/ \[busy[^\]]*\]$/, '')];
    }),
  );
  const summaryLines = [
    `${judged.length - missed.length} of ${judged.length} targets met${missed.length ? `; missed${overlapping.length ? ` (${overlapping.length} of them with the two builds' runs overlapping: within this run's noise)` : ''}:` : '.'}`,
    ...missed.map(
      (r) => `- ${named.get(r)}: ${r.absolute ? `${r.current}, target ${r.target}` : `${r.base} → ${r.current} = ${r.ratio}×, target ${r.target}${r.met === 'NO' ? '' : ' (runs overlap)'}`}`,
    ),
    '',
    `Runs are interleaved (base, current, then current, base, …); a figure with a range is the median of the runs, min–max in brackets; ratios are of the medians.`,
    busy.length
      ? `**Busy run**: ${busy.length} of ${loadWindows.length} phases ran with the ${BUSY_RULE}; their rows are marked [busy] (${busy.map((w) => `${w.phase}: ${w.before.toFixed(1)} → ${w.after.toFixed(1)}`).join('; ')}).`
      : `No phase ran with the ${BUSY_RULE}.`,
    ...notes.map((n) => `Note: ${n}.`),
  ];
  log('');
  for (const line of tableLines) log(line);
  log('');
  for (const line of summaryLines) log(line);

  const out = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    builds,
    store: { ...sizes, seed: SEED },
    secondsPerCase: DURATION,
    quick: QUICK,
    repeats: REPEATS,
    only: args.only,
    machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version, platform: process.platform },
    storage,
    compaction: compacted,
    maintenance: maint,
    http: httpInfo ? { ...httpInfo, cases: Object.fromEntries(cases) } : undefined,
    loadAverage: { before: loadBefore, after: loadavg(), busyAbove: BUSY_LOAD, rule: BUSY_RULE, phases: loadWindows, busy: busy.length > 0 },
    notes,
    rows: rows.map(({ values, absolute: _absolute, ...r }) => ({ ...r, ...values })),
  };
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stem = `${startedAt.toISOString().replace(/[:.]/g, '-')}-ab`;
  writeFileSync(join(dir, `${stem}.json`), `${JSON.stringify(out, null, 2)}\n`);
  const md = [
    `# svctrail A/B, ${out.startedAt}${busy.length ? ' (busy machine)' : ''}`,
    '',
    `${runLine}. What it measures: bench/README.md, "A/B against a git ref".`,
    '',
    ...summaryLines,
    '',
    ...tableLines,
    '',
  ].join('\n');
  writeFileSync(join(dir, `${stem}.md`), md);
  log(`\nresults: ${join(dir, `${stem}.md`)}, ${stem}.json  (total ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s)`);
}

main().catch((error: unknown) => {
  for (const c of children) c.kill('SIGTERM');
  cleanUp();
  process.stderr.write(`bench:ab: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
