// One target's phase: start it on a fresh copy, run every case, stop it.
import { rmSync, writeFileSync } from 'node:fs';
import { WATCHERS, WATCH_WRITE_RATE, args, PROFILE, wanted, log } from './options';
import { type Target, isPg, type Running, start, stop, memory, settle } from './processes';
import { call } from './load';
import { type Fixture } from './fixture';
import { type Result, type CaseResult, type LoadCase, type CaseDef } from './cases';
import { runLoadCase, runWriteCase } from './case-runners';
import { runWatch } from './watch-fan-out';
import { scratchCopy, writtenStorage } from './storage-and-cli';
import { fmtNum } from './format';

/** Per target: what its writes added to its copy of the main dataset (writtenStorage). */
export const storageWritten: Partial<Record<Target, Result>> = {};

export async function phase(
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
