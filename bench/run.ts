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
// through the CLI and imported into a fresh database per target, svctrail_bench_<pid>_pg and
// _pg3 (the import timed), both up at once with their write cases interleaved as the SQLite
// targets' are, a subset of the cases (PG_READS, PG_WRITES settled, watch fan-out) plus, on three
// replicas, the cross-replica watch lag (issue 13 item 3); a table "PostgreSQL" after the main
// one. Skipped with a note when PostgreSQL (SVCTRAIL_BENCH_POSTGRES) cannot be reached.
//
// Each target (svctrail, floor-full, the floor) runs on its own fresh copy of the dataset, fsynced
// and dropped from the page cache before it starts (run/page-cache.ts), all servers up at once:
// each target's reads, history, time travel and watch resume; then the write cases (each settled,
// then right after a 64-connection burst) interleaved across the targets and run --repeat times
// (default 2; median and min–max in the table); then each target's watch fan-out
// (run/phase.ts). A phase whose 1-minute load average says other work shared the cores is
// marked [busy] (run/load-average.ts). Then replay / verify / export / import through the CLI
// against a raw read-parse-fold and a raw import of the same log. Prints the table (case,
// svctrail, floor-full, floor, svctrail ÷ floor-full, svctrail ÷ floor, target, met) and a
// summary per target, and writes
// bench/results/<timestamp>.json, <timestamp>.md and latest.md, and after a full run (1M, no --quick, --only,
// --targets or --profile) the tables into bench/README.md between its markers. A missed target is a
// measurement, not a failure: the exit code is 1 only when the benchmark itself could not run.
//
// usage: node bench/dist/run.js [--quick] [--duration SECONDS] [--only SUBSTRING[,SUBSTRING]] [--keep] [--dataset 1m|10k] [--profile CASE-ID]
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { type LoadWindow, BUSY_LOAD, BUSY_RULE, busyMark, loadWindows, underLoadWatch } from './run/load-average';
import { join } from 'node:path';
import { ensureDataset, HEAVY_ADDRESS, ONCE_ADDRESS } from './generate-data';
import { formatProfileSummary, type ProfileSummary, summarizeProfile } from './profile-summary';
import { type MirrorFigures, mirrorPhase, mirrorRows } from './mirror';
import { ROOT } from './real';
import { RSS_LIMIT, IDLE_RSS_LIMIT, CLI_RSS_LIMIT, args, PROFILE, PROFILE_DIR, QUICK, DURATION, ONLY, REPEATS, wanted, runs, log } from './run/options';
import { type Target, children } from './run/processes';

import { type Fixture, readFixture } from './run/fixture';
import { type Result, type CaseResult, type CaseDef, READ_CASES, TIME_TRAVEL_CASES, WHO_HAD_CASES, HISTORY_CASES, WRITE_CASES, EVENT_WRITE_CASES, FLAT_CASES, FLAT_WRITE_CASES } from './run/cases';
import { storage, profileOf, maintenance, compaction, copies } from './run/storage-and-cli';
import { type Row, type Check, type Spread, ratioRow, absoluteRow, table, pgTable, summary } from './run/report';
import { fmtMs, fmtNum, fmtMB, fmtX } from './run/format';
import { storageWritten, runTargets } from './run/phase';
import { PG_DATASET, PG_CASE_IDS, dropPgDatabase, pgPhase } from './run/postgres-phase';
import { writeLatestTable } from './run/readme-table';

process.on('SIGINT', () => {
  for (const c of children) c.kill('SIGTERM');
  // The bench's PostgreSQL database goes too, once its replicas let go of it (DROP … FORCE).
  void dropPgDatabase().finally(() => process.exit(130));
});

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
  let compacted: Result | undefined;
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
    // The status PUTs, then the Event writes (issue 42), on every target.
    const writes = [...WRITE_CASES, ...EVENT_WRITE_CASES];
    const defs = { reads: [...READ_CASES, ...HISTORY_CASES, ...TIME_TRAVEL_CASES], writes, watch: true, base: storageMain };
    if (PROFILE) mkdirSync(PROFILE_DIR, { recursive: true });
    // floor-full: the cases whose misses are read against the same storage work.
    const mainTargets = [
      ...(runs('svctrail') || PROFILE ? [{ target: 'svctrail' as const, defs }] : []),
      ...(!PROFILE && runs('floor-full') ? [{ target: 'floor-full' as const, defs: { reads: READ_CASES, writes, watch: true, base: storageMain } }] : []),
      ...(!PROFILE && runs('floor') ? [{ target: 'floor' as const, defs }] : []),
    ];
    Object.assign(memoryOf, await runTargets(mainTargets, fixture, mainSet.dir, mainKey, results, scratch));
    if (PROFILE) {
      const file = profileOf(memoryOf.svctrail.pid as number);
      const measured = results.get(PROFILE) ?? results.get(`${PROFILE}-settled`);
      const windowUs = measured?.svctrail?.windowUs as [number, number] | undefined;
      if (!file) log(`profile: no .cpuprofile of pid ${String(memoryOf.svctrail.pid)} in ${PROFILE_DIR}`);
      else if (!measured) log(`profile: no case with id ${PROFILE}`);
      else profiled = { caseId: PROFILE, file, summary: summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), 30, windowUs) };
    }

    if (!PROFILE && flatSet && (!ONLY || [...FLAT_CASES, ...FLAT_WRITE_CASES].some((d) => wanted(d.id)))) {
      log(`\n[10k] ${flatSet.manifest.events.toLocaleString('en-US')} events: the same requests on a short log`);
      storageFlat = storage(flatSet.dir, flatSet.manifest);
      const flatFixture = readFixture(flatSet.dir, flatSet.manifest);
      const flatDefs = { reads: FLAT_CASES, writes: FLAT_WRITE_CASES, watch: false };
      const flatTargets = (['svctrail', 'floor'] as const).filter(runs).map((target) => ({ target, defs: flatDefs }));
      await runTargets(flatTargets, flatFixture, flatSet.dir, '10k', flatResults, scratch);
    }

    const pgSet = flatSet ?? mainSet;
    if (!PROFILE && (!ONLY || PG_CASE_IDS.some(wanted)) && (runs('svctrail-pg') || runs('svctrail-pg3'))) pg = await pgPhase(pgSet, pgResults, memoryOf, scratch);

    if (!PROFILE && wanted('maintenance') && runs('svctrail')) {
      log(`\nmaintenance: the whole ${mainKey} log (${fmtNum(storageMain.events)} events)`);
      const { value, window } = await underLoadWatch(`${mainKey} maintenance`, () => maintenance(mainSet.dir, mainKey, storageMain.events as number, scratch));
      maint = { ...value, ...(window.busy ? { busyLoad: window } : {}) };
    }

    if (!PROFILE && wanted('compaction') && runs('svctrail')) {
      log(`\ncompaction: the ${mainKey} history compacted to its newest 10%`);
      compacted = (await underLoadWatch(`${mainKey} compaction`, () => compaction(mainSet.dir, mainKey, scratch))).value;
    }

    if (!PROFILE && wanted('mirror') && runs('svctrail')) {
      // Its own source and mirror (bench/mirror.ts): 10k Services, 500 status PUTs/s.
      log('\nmirror: a svctrail recording another (--mirror)');
      mirror = (await underLoadWatch('mirror', () => mirrorPhase({ services: QUICK ? 2_000 : 10_000, rate: 500, seconds: QUICK ? 5 : 20 }))).value;
    }
  } finally {
    if (!args.keep) for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }

  // The table.
  const rows: Row[] = [];
  const BIG = mainKey.toUpperCase();
  const num = (o: Result | undefined, k: string) => (o && typeof o[k] === 'number' ? o[k] : undefined);
  const atLeast = (x: number, goal: number): Check => ({ text: `≥ ${x.toFixed(2)} × floor`, goal, check: (_s, _f, q) => q >= x });
  const atMost = (x: number, goal: number): Check => ({ text: `≤ ${x} × floor`, goal, check: (_s, _f, q) => q <= x });
  const notServed = (r: CaseResult) => r.svctrail?.served === false;
  const notServedRow = (r: CaseResult, goal: number): Row => ({
    case: `${r.title}${busyMark(r.busyLoad)}`,
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
  const ff = (r: CaseResult, k: string) => (r['floor-full'] ? (num(r['floor-full'], k) ?? NaN) : undefined);
  /** A case's title, marked when a phase that measured it ran on a busy machine. */
  const titled = (r: CaseResult) => `${r.title}${busyMark(r.busyLoad)}`;
  /** The min–max of a repeated case's runs (write cases), per column. */
  const spreadOf = (r: CaseResult, k: string): Spread => {
    const of = (o: Result | undefined) => (o?.spread as Record<string, [number, number]> | undefined)?.[k];
    return { s: of(r.svctrail), fl: of(r.floor), ff: of(r['floor-full']) };
  };
  const loadRows = (r: CaseResult, rps?: Check, p99?: Check) => {
    rows.push(ratioRow(`${titled(r)}: req/s`, num(r.svctrail, 'rps'), num(r.floor, 'rps'), fmtNum, rps, ff(r, 'rps'), spreadOf(r, 'rps')));
    rows.push(ratioRow(`  p50 ms`, num(r.svctrail, 'p50'), num(r.floor, 'p50'), fmtMs, undefined, ff(r, 'p50'), spreadOf(r, 'p50')));
    rows.push(ratioRow(`  p99 ms`, num(r.svctrail, 'p99'), num(r.floor, 'p99'), fmtMs, p99, ff(r, 'p99'), spreadOf(r, 'p99')));
  };

  // 1. writes: the status PUTs (issue 11's targets), then the Event writes (issue 42: shown beside
  // the floors doing the same storage work; no target of their own).
  for (const def of [...WRITE_CASES, ...EVENT_WRITE_CASES]) {
    const judged = WRITE_CASES.includes(def);
    for (const variant of ['settled', 'burst']) {
      const r = results.get(`${def.id}-${variant}`);
      if (!r) continue;
      if (judged) loadRows(r, atLeast(0.5, 1), atMost(2, 1));
      else loadRows(r);
      rows.push(ratioRow(`  WAL file after the case`, num(r.svctrail, 'walBytes'), num(r.floor, 'walBytes'), fmtMB, undefined, ff(r, 'walBytes'), spreadOf(r, 'walBytes')));
      const growth = (t: Target) => (num(r[t], 'walMaxBytes') ?? NaN) - (num(r[t], 'walBeforeBytes') ?? NaN);
      rows.push(ratioRow(`  WAL file growth during the case`, growth('svctrail'), growth('floor'), fmtMB, undefined, r['floor-full'] ? growth('floor-full') : undefined));
      rows.push(
        ratioRow(
          `  disk bytes written per write`,
          num(r.svctrail, 'diskBytesPerWrite'),
          num(r.floor, 'diskBytesPerWrite'),
          fmtNum,
          undefined,
          ff(r, 'diskBytesPerWrite'),
          spreadOf(r, 'diskBytesPerWrite'),
        ),
      );
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
      rows.push(ratioRow(`${titled(r)}: ms to the first event`, num(r.svctrail, 'p50'), num(r.floor, 'p50'), fmtMs));
      rows.push(ratioRow(`  p99 ms to the first event`, num(r.svctrail, 'p99'), num(r.floor, 'p99'), fmtMs, atMost(2, 3)));
      rows.push(ratioRow(`  ms to catch up ${fmtNum(num(r.svctrail, 'events'))} events, p50`, num(r.svctrail, 'catchUpP50'), num(r.floor, 'catchUpP50'), fmtMs));
      rows.push(ratioRow(`  ms to catch up, p99`, num(r.svctrail, 'catchUpP99'), num(r.floor, 'catchUpP99'), fmtMs, atMost(2, 3)));
      flatRows(
        def,
        [
          ['p50', 'first event p50'],
          ['catchUpP50', 'catch-up p50'],
        ],
        3,
      );
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
    rows.push(ratioRow(`${titled(w)}: writes/s`, num(w.svctrail, 'writesPerSecond'), num(w.floor, 'writesPerSecond'), fmtNum, undefined, ff(w, 'writesPerSecond')));
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
  // 6. maintenance. Issue 28 judges each command against its floor-full, the raw program that
  // stores the same rows: replay ≥ 0.8×, verify and import ≥ 1.0×.
  const ofFloorFull = (least: number, ff: number | undefined): Check => ({
    text: `≥ ${least.toFixed(1)}× floor-full`,
    goal: 6,
    check: (s) => ff !== undefined && s / ff >= least,
  });
  if (maint) {
    const raw = maint.rawFold as Result;
    const rebuild = maint.rawRebuild ? num(maint.rawRebuild as Result, 'eventsPerSecond') : undefined;
    for (const command of ['replay', 'verify'] as const) {
      const m = maint[command] as Result | undefined;
      if (!m) continue;
      rows.push(
        absoluteRow(
          `svctrail ${command} of the whole log: events/s (floor: raw read-parse-fold; floor-full: raw rebuild, the same rows stored)${m.ok ? '' : ' — FAILED'}${busyMark(maint.busyLoad as LoadWindow | undefined)}`,
          num(m, 'eventsPerSecond'),
          num(raw, 'eventsPerSecond'),
          fmtNum,
          ofFloorFull(command === 'replay' ? 0.8 : 1.0, rebuild),
          rebuild,
        ),
      );
      rows.push(absoluteRow(`  peak RSS`, num(m, 'peakRssBytes'), num(raw, 'peakRssBytes'), fmtMB, { text: '≤ 400 MB', goal: 6, check: (s) => s <= CLI_RSS_LIMIT }));
    }
    const imp = maint.import as Result | undefined;
    const rawImp = maint.rawImport as Result | undefined;
    if (imp) {
      const full = maint.rawImportRebuild as Result | undefined;
      const fullRate = full ? num(full, 'eventsPerSecond') : undefined;
      rows.push(
        absoluteRow(
          `svctrail import of the export: events/s (floor: raw parse-append-fold; floor-full: the same events appended, then the raw rebuild's rows)${imp.ok ? '' : ' — FAILED'}${busyMark(maint.busyLoad as LoadWindow | undefined)}`,
          num(imp, 'eventsPerSecond'),
          num(rawImp, 'eventsPerSecond'),
          fmtNum,
          ofFloorFull(1.0, fullRate),
          fullRate,
        ),
      );
      rows.push(absoluteRow(`  peak RSS`, num(imp, 'peakRssBytes'), num(rawImp, 'peakRssBytes'), fmtMB, { text: '≤ 400 MB', goal: 6, check: (s) => s <= CLI_RSS_LIMIT }));
    }
    const exp = maint.export as Result | undefined;
    if (exp) rows.push(ratioRow(`  (svctrail export: events/s)`, num(exp, 'eventsPerSecond'), undefined, fmtNum));
  }
  // 7. storage, memory
  rows.push(ratioRow(`database bytes/event, ${mainKey} (floor: the events table alone)`, num(storageMain!, 'bytesPerEvent'), num(storageMain!, 'eventTableBytesPerEvent'), fmtNum, atMost(1.5, 7)));
  if (compacted && !compacted.error) {
    // Informational: the file after `svctrail compact` kept objects for the newest 10% only
    // (facts stay: events, patches, managedFields, transitions, intervals); and how fast it went.
    rows.push(
      ratioRow(
        `  database bytes/event after svctrail compact to the newest 10% (floor: the events table alone)`,
        num(compacted, 'bytesPerEvent'),
        num(storageMain!, 'eventTableBytesPerEvent'),
        fmtNum,
      ),
    );
    rows.push(absoluteRow(`  svctrail compact to the newest 10%: revisions/s`, num(compacted, 'revisionsPerSecond'), undefined, fmtNum));
  }
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
    // Informational: what the write cases' log rows cost each target (every table and index, from
    // dbstat, after the phase minus before; the Event writes' rows included). The target above is
    // judged on the whole dataset.
    const per = (t: Target) => (storageWritten[t] ? (num(storageWritten[t], 'bytesPerEvent') ?? NaN) : undefined);
    rows.push(
      ratioRow(
        `database bytes/event added by the phase's writes, ${mainKey} (status PUTs and Event writes, per log row; every table and index)`,
        per('svctrail'),
        per('floor'),
        fmtNum,
        undefined,
        per('floor-full'),
      ),
    );
  }
  if (storageFlat) rows.push(ratioRow(`database bytes/event, 10k (floor: the events table alone)`, num(storageFlat, 'bytesPerEvent'), num(storageFlat, 'eventTableBytesPerEvent'), fmtNum));
  rows.push(
    absoluteRow(
      `peak RSS of the server (its whole ${mainKey} phase; floor-full runs fewer cases)${memoryOf.svctrail?.peakDuring ? `; svctrail's during: ${String(memoryOf.svctrail.peakDuring)}` : ''}`,
      num(memoryOf.svctrail, 'peakRssBytes'),
      num(memoryOf.floor, 'peakRssBytes'),
      fmtMB,
      { text: '≤ 200 MB', goal: 7, check: (s) => s <= RSS_LIMIT },
      memoryOf['floor-full'] ? num(memoryOf['floor-full'], 'peakRssBytes') : undefined,
    ),
  );
  rows.push(
    absoluteRow(
      `RSS of the server at idle (${mainKey}: started, settled, then 15 s without a request)`,
      num(memoryOf.svctrail, 'idleRssBytes'),
      num(memoryOf.floor, 'idleRssBytes'),
      fmtMB,
      { text: '≤ 120 MB', goal: 7, check: (s) => s <= IDLE_RSS_LIMIT },
      memoryOf['floor-full'] ? num(memoryOf['floor-full'], 'idleRssBytes') : undefined,
    ),
  );
  // Informational: each server's WAL file at its largest over the phase (issue 28: a floor whose
  // WAL may grow where svctrail's is held to 64 MB measures a WAL svctrail cannot afford).
  rows.push(
    ratioRow(
      `peak WAL file of the server (its whole ${mainKey} phase, sampled every 200 ms)`,
      num(memoryOf.svctrail, 'peakWalBytes'),
      num(memoryOf.floor, 'peakWalBytes'),
      fmtMB,
      undefined,
      memoryOf['floor-full'] ? num(memoryOf['floor-full'], 'peakWalBytes') : undefined,
    ),
  );
  // Informational: the three cases during which svctrail's RSS peaked highest.
  const peaks = [...results.values()]
    .map((r) => ({
      title: r.title,
      s: r.svctrail ? num(r.svctrail, 'serverPeakRssBytes') : undefined,
      ff: r['floor-full'] ? num(r['floor-full'], 'serverPeakRssBytes') : undefined,
      fl: r.floor ? num(r.floor, 'serverPeakRssBytes') : undefined,
    }))
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
  const pgLines =
    pg && !pg.skipped ? pgTable(pgResults, mainKey === PG_DATASET ? results : flatResults, results, mainKey, pg, maint) : pg?.skipped ? [`PostgreSQL columns skipped: ${String(pg.skipped)}`] : [];
  const profileLines = profiled
    ? [
        `## Where svctrail's CPU time goes: ${profiled.caseId}`,
        '',
        `Self time on the server's main thread during the measured part of the case (\`--profile ${profiled.caseId}\`; the whole profile: \`${profiled.file.slice(ROOT.length + 1)}\`, open it in Chrome DevTools or summarise it with \`node bench/dist/profile-summary.js FILE\`).`,
        '',
        ...formatProfileSummary(profiled.summary),
      ]
    : [];
  // Under the table: how write cases are shown, how the copies were treated, and which phases
  // ran on a busy machine (rows marked [busy]).
  const busyPhases = loadWindows.filter((w) => w.busy);
  const dropped = [...new Set(copies.map((c) => c.cacheDrop))];
  const noteLines = [
    `Write cases: the median of ${REPEATS} run${REPEATS > 1 ? 's' : ''} per target, interleaved across the targets, min–max in brackets; the ratios are of the medians.`,
    `Scratch copies: ${copies.length}, each fsynced${dropped.includes('none') ? ' (not all dropped from the page cache: not permitted)' : ` and dropped from the page cache (${dropped.join(', ')})`} before anything ran on it.`,
    busyPhases.length
      ? `**Busy run**: ${busyPhases.length} of ${loadWindows.length} phases ran with the ${BUSY_RULE}: other work shared the cores; their rows are marked [busy] and are noisy (${busyPhases.map((w) => `${w.phase}: ${w.before.toFixed(1)} → ${w.after.toFixed(1)}`).join('; ')}).`
      : `No phase ran with the ${BUSY_RULE}.`,
  ];
  log('');
  for (const line of tableLines) log(line);
  log('');
  for (const line of noteLines) log(line);
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

  const out = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    mode: QUICK ? 'quick' : 'full',
    only: args.only,
    secondsPerCase: DURATION,
    repeats: REPEATS,
    machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version, platform: process.platform },
    datasets: { [mainKey]: { ...mainSet.manifest, storage: storageMain! }, ...(flatSet ? { '10k': { ...flatSet.manifest, storage: storageFlat } } : {}) },
    cases: Object.fromEntries(results),
    flat10k: Object.fromEntries(flatResults),
    postgres: pg ? { ...pg, cases: Object.fromEntries(pgResults) } : undefined,
    maintenance: maint,
    compaction: compacted,
    mirror,
    loadAverage: { before: loadBefore, after: loadavg(), busyAbove: BUSY_LOAD, rule: BUSY_RULE, phases: loadWindows, busy: busyPhases.length > 0 },
    scratchCopies: copies,
    memory: memoryOf,
    storageWritten,
    profile: profiled,
    rows: rows.map(({ values, ...r }) => ({ ...r, ...values })),
  };
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stem = `${startedAt.toISOString().replace(/[:.]/g, '-')}${QUICK ? '-quick' : ''}${PROFILE ? `-profile-${PROFILE}` : ''}`;
  writeFileSync(join(dir, `${stem}.json`), `${JSON.stringify(out, null, 2)}\n`);
  const runLine =
    `${DURATION} s per case on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; load average ${loadBefore[0].toFixed(2)} → ${loadavg()[0].toFixed(2)}` +
    (busyPhases.length ? ` — busy run: ${busyPhases.length} of ${loadWindows.length} phases above ${BUSY_LOAD}, other work shared the cores (rows marked [busy])` : '') +
    (args.only ? `; only ${args.only}` : '') +
    (args['pg3-write-leader'] ? '; svctrail-pg3 with one write leader (--replica-url auto)' : '');
  const sections = [
    '## Summary',
    '',
    ...summaryLines,
    '',
    '## Every case',
    '',
    ...tableLines,
    '',
    ...noteLines,
    '',
    ...(pgLines.length ? [...pgLines, ''] : []),
    ...(mirror ? ['## Mirror (issue 24)', '', ...mirrorRows(mirror), ''] : []),
    ...(profiled ? [...profileLines, ''] : []),
  ];
  const title = `${out.mode} (${mainKey}${flatSet ? ' and 10k' : ''}), ${out.startedAt}${busyPhases.length ? ' (busy machine)' : ''}`;
  const md = [`# svctrail benchmark, ${title}`, '', `${runLine}. What each case and each floor does: bench/README.md.`, '', ...sections].join('\n');
  writeFileSync(join(dir, `${stem}.md`), md);
  if (!PROFILE) writeFileSync(join(dir, 'latest.md'), md);
  // Only the whole benchmark, on the dataset bench/README.md describes, replaces the table there.
  const fullRun = !QUICK && !args.only && !args.targets && !PROFILE && mainKey === '1m';
  if (fullRun) {
    const block = [`Run: ${title}. ${runLine}. Every figure: \`bench/results/${stem}.json\`.`, '', ...sections.map((line) => (line.startsWith('## ') ? `#${line}` : line))];
    writeLatestTable(join(ROOT, 'bench', 'README.md'), block.join('\n'));
  }
  if (busyPhases.length) log(`\nnote: ${busyPhases.length} of ${loadWindows.length} phases ran with the ${BUSY_RULE}: other processes shared the CPUs; those rows are marked [busy]`);
  log(`\nresults: ${join(dir, `${stem}.json`)}, ${stem}.md${PROFILE ? '' : ', latest.md'}${fullRun ? ', bench/README.md' : ''}  (total ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s)`);
}

main().catch(async (error: unknown) => {
  for (const c of children) c.kill('SIGTERM');
  await dropPgDatabase();
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
