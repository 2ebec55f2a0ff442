// The targets' phases on one dataset: each target on its own fresh copy (fsynced and dropped from
// the page cache before it starts), all of them up at once; each target's reads, then the write
// cases interleaved across the targets and repeated (REPEATS), then each target's watch fan-out.
//
// Why interleaved: the same code measured 20–40% apart between runs on the shared 2-core machine
// (issue 28). A write case runs on svctrail, floor-full, the floor, then again in the reverse
// order (ABC CBA: a drift over the minutes of a case weighs on every target alike), each run
// settled and after a burst as before; the table shows the median of the runs and their min–max,
// and the ratios are of the medians. Reads stay one run per target: they are read at their p99
// against targets, and each is short.
import { rmSync, writeFileSync } from 'node:fs';
import { WATCHERS, WATCH_WRITE_RATE, args, PROFILE, REPEATS, wanted, log } from './options';
import { type Target, isPg, type Running, start, stop, memory, settle, walSize } from './processes';
import { call } from './load';
import { type Fixture } from './fixture';
import { type Result, type CaseResult, type LoadCase, type CaseDef, mergeRuns } from './cases';
import { runLoadCase, runWriteCase } from './case-runners';
import { runWatch } from './watch-fan-out';
import { copies, scratchCopy, writtenStorage } from './storage-and-cli';
import { type LoadWindow, underLoadWatch } from './load-average';
import { fmtMB, fmtNum } from './format';

/** Per target: what its writes added to its copy of the main dataset (writtenStorage). */
export const storageWritten: Partial<Record<Target, Result>> = {};

export interface PhaseDefs {
  reads: CaseDef[];
  writes: LoadCase[];
  watch: boolean | 'json';
  base?: Result;
  settledOnly?: boolean;
  pgUrl?: string;
}

interface Phase {
  target: Target;
  label: string;
  defs: PhaseDefs;
  server: Running;
  dirs: string[];
  fx: Fixture;
  t0: number;
  peak: { bytes: number; during: string };
  /** VmRSS once it has served and settled and then sat idle for IDLE_MS, before any case. */
  idleRssBytes?: number;
  /** The WAL file's largest size over the phase (sampled every 200 ms). */
  walPeak: number;
  walPoll?: NodeJS.Timeout;
}

async function open(target: Target, f: Fixture, source: string, label: string, defs: PhaseDefs, scratch: string[]): Promise<Phase> {
  // On PostgreSQL each replica gets a copy of the credentials; the data is the database's.
  const replicas = target === 'svctrail-pg3' ? 3 : 1;
  const dirs = Array.from({ length: replicas }, (_, i) => scratchCopy(source, `${label}-${target}${i ? `-${i}` : ''}`, isPg(target)));
  scratch.push(...dirs);
  const t0 = performance.now();
  // The first replica applies the migrations; the others start once it serves.
  const first = await start(target, dirs[0], defs.pgUrl);
  const others = await Promise.all(dirs.slice(1).map((d) => start(target, d, defs.pgUrl)));
  const server: Running = { ...first, urls: [first.url, ...others.map((o) => o.url)], replicas: others };
  const copy = copies.at(-1);
  log(
    ` ${target} up at ${server.urls.join(', ')} after ${((performance.now() - t0) / 1000).toFixed(1)} s` +
      (copy ? ` (its copy fsynced in ${fmtNum(copy.syncMs)} ms, page cache: ${copy.cacheDrop === 'none' ? 'not dropped' : `dropped (${copy.cacheDrop})`})` : ''),
  );
  const p: Phase = { target, label, defs, server, dirs, fx: { ...f, dataDir: dirs[0] }, t0, peak: { bytes: 0, during: '' }, walPeak: 0 };
  if (!isPg(target)) {
    p.walPeak = walSize(dirs[0]);
    p.walPoll = setInterval(() => (p.walPeak = Math.max(p.walPeak, walSize(dirs[0]))), 200);
  }
  return p;
}

/**
 * The server's peak RSS during a case: VmHWM read after it, then reset to the current RSS
 * (clear_refs 5), so the phase's peak names the case that reached it.
 */
function casePeak(p: Phase, title: string): number {
  const pid = p.server.child.pid!;
  const bytes = memory(pid).peakRssBytes;
  if (bytes > p.peak.bytes) p.peak = { bytes, during: title };
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not ours: the phase's peak is then VmHWM over the whole phase
  }
  return bytes;
}

function record(results: Map<string, CaseResult>, target: Target, id: string, title: string, value: Result): void {
  const entry = results.get(id) ?? { id, title };
  entry[target] = value;
  results.set(id, entry);
}

/** Marks the cases measured during a busy phase (the highest load seen wins). */
function markBusy(results: Map<string, CaseResult>, ids: string[], window: LoadWindow): void {
  if (!window.busy) return;
  for (const id of ids) {
    const entry = results.get(id);
    if (entry && Math.max(window.before, window.after) > Math.max(entry.busyLoad?.before ?? 0, entry.busyLoad?.after ?? 0)) entry.busyLoad = { before: window.before, after: window.after };
  }
}

async function reads(p: Phase, results: Map<string, CaseResult>): Promise<void> {
  const ids: string[] = [];
  const put = (id: string, title: string, value: Result) => {
    record(results, p.target, id, title, { ...value, serverPeakRssBytes: casePeak(p, title) });
    ids.push(id);
  };
  const { window } = await underLoadWatch(`${p.label} ${p.target}: reads`, async () => {
    let seed = 1;
    for (const def of p.defs.reads) {
      seed++;
      if (!wanted(def.id)) continue;
      put(def.id, def.title, def.kind === 'load' ? await runLoadCase(p.server, p.fx, def, seed) : await def.run(p.server, p.fx, seed));
    }
  });
  markBusy(results, ids, window);
}

/**
 * Every write case on every phase that has it: REPEATS runs, the targets' order reversed on every
 * other run; before a settled run every other server is quiet too, so no run pays for another
 * server's checkpoint. Each target's entry is the median of its runs (mergeRuns).
 */
async function interleavedWrites(phases: Phase[], results: Map<string, CaseResult>): Promise<void> {
  const cases = [...new Map(phases.flatMap((p) => p.defs.writes.map((d) => [d.id, d] as const))).values()];
  const repeats = PROFILE ? 1 : REPEATS;
  for (const [index, def] of cases.entries()) {
    if (!wanted(def.id)) continue;
    const seed = 1000 + index;
    const on = phases.filter((p) => p.defs.writes.some((d) => d.id === def.id));
    const variants = (p: Phase) => (PROFILE || p.defs.settledOnly ? (['settled'] as const) : (['settled', 'burst'] as const));
    const runs = new Map<string, Result[]>();
    const { window } = await underLoadWatch(`${on[0].label} ${def.id}`, async () => {
      // What the case's requests need (the Events its repeats patch), on every target first.
      if (def.prepare) for (const p of on) await def.prepare(p.server, p.fx);
      for (let run = 0; run < repeats; run++) {
        for (const p of run % 2 ? [...on].reverse() : on) {
          for (const variant of variants(p)) {
            const others = phases.filter((o) => o !== p).map((o) => o.server);
            const title = `${def.title}, ${variant === 'settled' ? 'settled' : 'after a 64-conn burst'}`;
            const r = await runWriteCase(p.server, p.fx, def, seed, variant, { quiet: others, run: repeats > 1 ? `${run + 1}/${repeats}` : '' });
            const key = `${p.target}|${def.id}-${variant}|${title}`;
            runs.set(key, [...(runs.get(key) ?? []), { ...r, serverPeakRssBytes: casePeak(p, title) }]);
          }
        }
      }
    });
    for (const [key, list] of runs) {
      const [target, id, title] = key.split('|') as [Target, string, string];
      record(results, target, id, title, mergeRuns(list));
    }
    markBusy(results, [`${def.id}-settled`, `${def.id}-burst`], window);
  }
}

async function watchFanOut(p: Phase, results: Map<string, CaseResult>): Promise<void> {
  const { server, fx, target } = p;
  const ids: string[] = [];
  const put = (id: string, title: string, value: Result) => {
    record(results, target, id, title, { ...value, serverPeakRssBytes: casePeak(p, title) });
    ids.push(id);
  };
  const { window } = await underLoadWatch(`${p.label} ${target}: watch`, async () => {
    if (p.defs.watch === 'json') {
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
    } else if (p.defs.watch && wanted('watch-100')) {
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
  });
  markBusy(results, ids, window);
}

/** Stops the phase's server; its memory, its peak WAL, and (main dataset) what its writes added. */
async function close(p: Phase): Promise<Result> {
  const pid = p.server.child.pid!;
  clearInterval(p.walPoll);
  let last: ReturnType<typeof memory>;
  try {
    last = memory(pid);
  } finally {
    await stop(p.server);
  }
  if (last.peakRssBytes > p.peak.bytes) p.peak = { bytes: last.peakRssBytes, during: 'between cases' };
  const out: Result = { ...last, peakRssBytes: p.peak.bytes, peakDuring: p.peak.during, idleRssBytes: p.idleRssBytes, startupMs: performance.now() - p.t0, pid };
  if (!isPg(p.target)) {
    p.walPeak = Math.max(p.walPeak, walSize(p.dirs[0]));
    out.peakWalBytes = p.walPeak;
    log(` ${p.target}: peak WAL file over the ${p.label} phase ${fmtMB(p.walPeak)}`);
  }
  if (p.defs.base && !isPg(p.target)) {
    const written = writtenStorage(p.dirs[0], p.defs.base);
    storageWritten[p.target] = written;
    if (typeof written.bytesPerEvent === 'number') log(` ${p.target}: its writes added ${fmtNum(written.events)} events, ${fmtNum(written.bytesPerEvent)} database bytes per event`);
  }
  if (!args.keep) for (const d of p.dirs) rmSync(d, { recursive: true, force: true });
  return out;
}

/** How long every server sits idle before its RSS at idle is read (issue 28: 15 s after start). */
const IDLE_MS = 15_000;

/** Each server's RSS after IDLE_MS with no request: what a server that started and waits holds. */
async function idle(phases: Phase[]): Promise<void> {
  // None (--targets left none of this dataset's), or PostgreSQL's (its replicas are not svctrail's RSS).
  if (PROFILE || !phases.length || isPg(phases[0].target)) return;
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  for (const p of phases) {
    p.idleRssBytes = memory(p.server.child.pid!).rssBytes;
    log(` ${p.target}: RSS ${fmtMB(p.idleRssBytes)} after ${IDLE_MS / 1000} s idle`);
  }
}

/**
 * The phases of `targets` on one dataset, all servers up at once: each one's reads, the write
 * cases interleaved, each one's watch fan-out. Returns each server's memory and peak WAL.
 */
export async function runTargets(
  targets: { target: Target; defs: PhaseDefs }[],
  f: Fixture,
  source: string,
  label: string,
  results: Map<string, CaseResult>,
  scratch: string[],
): Promise<Partial<Record<Target, Result>>> {
  const phases: Phase[] = [];
  const out: Partial<Record<Target, Result>> = {};
  try {
    for (const { target, defs } of targets) phases.push(await open(target, f, source, label, defs, scratch));
    // Whatever a server does once it serves (its first checkpoint, a migration) is over first.
    await Promise.all(phases.map((p) => settle(p.server)));
    await idle(phases);
    for (const p of phases) await reads(p, results);
    await interleavedWrites(phases, results);
    for (const p of phases) await watchFanOut(p, results);
  } finally {
    for (const p of phases) out[p.target] = await close(p);
  }
  return out;
}
