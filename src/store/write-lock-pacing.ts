// Leaves SQLite's write lock free after a command's transaction, for a server's writes waiting on
// it. A waiting writer does not queue: its busy handler sleeps and retries (SQLite's schedule: 1,
// 2, 5, 10 … 25, 50, then 100 ms), so transactions started back to back would take the lock again
// before it retries and starve it. A writer that began waiting during a transaction that held the
// lock for t ms sleeps at most min(t, 100) + 5 ms between tries, so a pause of min(t, 100) + 10 ms
// lets it in. The pause is owed, not slept at once: whatever the command does without the lock
// meanwhile counts towards it.

/** How long the lock stays free after a transaction that held it `heldMs`. */
export function pauseAfterHold(heldMs: number): number {
  return Math.min(heldMs, 100) + 10;
}

export class WriteLockPacing {
  /** No transaction begins before this (performance.now() milliseconds). */
  private freeUntil = 0;
  /** Transactions run, and the longest hold of the lock among them (what a waiting write waited for at most). */
  transactions = 0;
  longestMs = 0;
  /** The longest hold by kind of transaction (a job's own label: the rows it moves, a vacuum step). */
  readonly longestByKind: Record<string, number> = {};

  /**
   * Waits until the lock is owed to nobody, then runs `transaction`, which holds it. A transaction
   * that first waits for the lock (BEGIN IMMEDIATE behind a server's commit) calls `acquired` once
   * it has it: the hold is counted from then, not from when it began to wait.
   */
  async hold<T>(transaction: (acquired: () => void) => T, kind = 'transaction'): Promise<T> {
    const owed = this.freeUntil - performance.now();
    if (owed > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(owed)));
    let started = performance.now();
    try {
      return transaction(() => (started = performance.now()));
    } finally {
      const ended = performance.now();
      this.transactions++;
      this.longestMs = Math.max(this.longestMs, ended - started);
      this.longestByKind[kind] = Math.max(this.longestByKind[kind] ?? 0, ended - started);
      this.freeUntil = ended + pauseAfterHold(ended - started);
    }
  }
}
