// Group commit: writes that arrive while a commit is in flight share the next transaction and
// its single fsync. Each write runs in its own savepoint (better-sqlite3 nests transactions as
// savepoints), so one write's failure never fails its neighbours; writes run in arrival order,
// so resourceVersions are exactly those of a serial execution; and each caller hears back only
// after the COMMIT that holds its write has returned.
import type { DatabaseHandle } from './database';

interface PendingWrite {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

export interface CommitObserver {
  /** Called after every commit with the number of writes it held and how long COMMIT took. */
  committed(batchSize: number, commitSeconds: number): void;
}

export class GroupCommitter {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private readonly inSavepoint;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly observer?: CommitObserver,
  ) {
    this.inSavepoint = handle.sqlite.transaction((work: () => unknown) => work());
  }

  /** Runs `work` inside the next shared transaction; resolves after that transaction commits. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Everything that arrives during this turn of the event loop joins the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits whatever is queued now (also used at shutdown). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (!batch.length) return;
    const sqlite = this.handle.sqlite;
    try {
      sqlite.exec('BEGIN IMMEDIATE');
      for (const pending of batch) {
        try {
          pending.outcome = { ok: true, value: this.inSavepoint(pending.work) };
        } catch (error) {
          pending.outcome = { ok: false, error };
        }
      }
      const started = process.hrtime.bigint();
      sqlite.exec('COMMIT');
      this.observer?.committed(batch.length, Number(process.hrtime.bigint() - started) / 1e9);
    } catch (error) {
      // The transaction as a whole failed (disk full, I/O error): nothing in it is durable.
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const pending of batch) {
      const outcome = pending.outcome!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    }
  }
}
