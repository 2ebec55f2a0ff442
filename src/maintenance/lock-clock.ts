// Runs replay's writes to the live file as short IMMEDIATE transactions and records how long each
// held the write lock, which every write of a running server waits for (up to its busy timeout).
//
// After each transaction it leaves the lock free for a while (pauseAfterHold: why and how long,
// in write-lock-pacing.ts), synchronously: replay is. The pause is owed, not slept at once:
// whatever replay does without the lock meanwhile (a checkpoint, the next batch's bounds) counts
// towards it. With no server on the directory (replay holds the server's own lock, so none can
// start) nobody can be waiting, and no pause is owed.
import type Database from 'better-sqlite3';
import { pauseAfterHold } from '../store/write-lock-pacing';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const blockFor = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);

export interface LockReport {
  /** Write transactions replay ran on the live file. */
  transactions: number;
  /** The longest one, in milliseconds, from the lock taken to COMMIT returned... */
  longestMs: number;
  /** ...and what it did. */
  longest: string;
  /** All of them together. */
  totalMs: number;
  /** Every transaction that held it a second or more (what a server's writes waited longest for), longest first. */
  overOneSecond: { ms: number; what: string }[];
}

export class LockClock {
  private readonly held: { ms: number; what: string }[] = [];
  /** No transaction begins before this (process.hrtime.bigint() nanoseconds). */
  private freeUntil = 0n;

  /**
   * `paced`: leave the lock free after each transaction, for a server's writes waiting on it;
   * `sleep` blocks the thread for that long (replay is synchronous).
   */
  constructor(
    private readonly paced = true,
    private readonly sleep: (ms: number) => void = blockFor,
  ) {}

  /** Runs `work` (described by `what`) in BEGIN IMMEDIATE … COMMIT on `sqlite` (ROLLBACK if it throws). */
  hold<T>(sqlite: Database.Database, what: string, work: () => T): T {
    const owed = Number(this.freeUntil - process.hrtime.bigint()) / 1e6;
    if (owed > 0) this.sleep(Math.ceil(owed));
    sqlite.exec('BEGIN IMMEDIATE');
    const started = process.hrtime.bigint();
    try {
      const result = work();
      sqlite.exec('COMMIT');
      const committed = process.hrtime.bigint();
      const ms = Number(committed - started) / 1e6;
      this.held.push({ ms, what });
      if (this.paced) this.freeUntil = committed + BigInt(Math.ceil(pauseAfterHold(ms) * 1e6));
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    }
  }

  /** How long the last transaction held the lock. */
  get lastMs(): number {
    return this.held[this.held.length - 1]?.ms ?? 0;
  }

  report(): LockReport {
    const round = (ms: number) => Math.round(ms * 10) / 10;
    const longest = this.held.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, what: 'none' });
    return {
      transactions: this.held.length,
      longestMs: round(longest.ms),
      longest: longest.what,
      totalMs: round(this.held.reduce((n, h) => n + h.ms, 0)),
      overOneSecond: this.held
        .filter((h) => h.ms >= 1000)
        .sort((a, b) => b.ms - a.ms)
        .map((h) => ({ ms: round(h.ms), what: h.what })),
    };
  }
}
