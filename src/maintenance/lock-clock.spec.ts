import type Database from 'better-sqlite3';
import { LockClock } from './lock-clock';

/** A connection that only records when each statement ran (LockClock needs exec and inTransaction). */
function recordingConnection() {
  const log: { sql: string; at: bigint }[] = [];
  const connection = {
    inTransaction: false,
    exec(sql: string) {
      log.push({ sql, at: process.hrtime.bigint() });
      return connection;
    },
  };
  return { log, sqlite: connection as unknown as Database.Database };
}

const busyFor = (ms: number) => {
  const until = process.hrtime.bigint() + BigInt(ms * 1e6);
  while (process.hrtime.bigint() < until);
};

describe('LockClock', () => {
  it('leaves the lock free min(held, 100) + 10 ms after each COMMIT before the next BEGIN, time spent without the lock included', () => {
    const { log, sqlite } = recordingConnection();
    const clock = new LockClock();
    clock.hold(sqlite, 'first', () => busyFor(30));
    const firstMs = clock.lastMs;
    busyFor(5); // work without the lock counts towards the pause
    clock.hold(sqlite, 'second', () => busyFor(150));
    const secondMs = clock.lastMs;
    clock.hold(sqlite, 'third', () => undefined);
    expect(log.map((l) => l.sql)).toEqual(['BEGIN IMMEDIATE', 'COMMIT', 'BEGIN IMMEDIATE', 'COMMIT', 'BEGIN IMMEDIATE', 'COMMIT']);
    const gapMs = (commit: number) => Number(log[commit + 1].at - log[commit].at) / 1e6;
    expect(firstMs).toBeGreaterThanOrEqual(30);
    expect(gapMs(1)).toBeGreaterThanOrEqual(Math.min(firstMs, 100) + 10 - 1); // hrtime rounding of sleeps to whole ms
    expect(gapMs(3)).toBeGreaterThanOrEqual(Math.min(secondMs, 100) + 10 - 1);
    expect(clock.report().transactions).toBe(3);
  });

  it('owes no pause when nobody can be waiting (unpaced: replay holds the server lock), and owes one when paced', () => {
    const slept = (paced: boolean) => {
      const sleeps: number[] = [];
      const clock = new LockClock(paced, (ms) => void sleeps.push(ms));
      const { sqlite } = recordingConnection();
      for (const what of ['a', 'b', 'c']) clock.hold(sqlite, what, () => busyFor(150));
      return sleeps;
    };
    expect(slept(false)).toEqual([]);
    // Each of the two later transactions waited out what the one before it owed (110 ms, less the instant between).
    expect(slept(true)).toHaveLength(2);
  });
});
