// Was the machine ours while a phase ran? The 1-minute load average (os.loadavg) is sampled
// before and after each phase; the bench itself keeps at most BENCH_CORES cores busy (the load
// generator and the server under test — fsync waits count in Linux's load too), so a load above
// BENCH_CORES + 0.5 at either end means other work was runnable and shared the cores. Such a
// phase is marked [busy] in the table and the report, with the load it saw: its figures are a
// sample of a shared machine, not of svctrail. The 1-minute average lags: a phase that ends
// right after others started their work may show it only in the next phase's "before".
import { cpus, loadavg } from 'node:os';

/** Cores the bench keeps busy itself: the load generator and the server under test. */
export const BENCH_CORES = Math.min(cpus().length, 2);
export const BUSY_LOAD = BENCH_CORES + 0.5;
export const BUSY_RULE = `1-minute load average above ${BUSY_LOAD} (the ${BENCH_CORES} cores the bench keeps busy + 0.5) before or after the phase`;

export interface LoadWindow {
  phase: string;
  before: number;
  after: number;
  busy: boolean;
}

/** Every phase's window, in the order they ran. */
export const loadWindows: LoadWindow[] = [];

/** Runs `fn` as one phase and records the load average before and after it. */
export async function underLoadWatch<T>(phase: string, fn: () => Promise<T>): Promise<{ value: T; window: LoadWindow }> {
  const before = loadavg()[0];
  const value = await fn();
  const after = loadavg()[0];
  const window = { phase, before, after, busy: Math.max(before, after) > BUSY_LOAD };
  loadWindows.push(window);
  return { value, window };
}

/** The marker a row of a busy phase gets in the table. */
export const busyMark = (w: { before: number; after: number } | undefined) => (w ? ` [busy: load ${w.before.toFixed(1)} → ${w.after.toFixed(1)}]` : '');
