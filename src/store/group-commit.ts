// Group commit: writes that arrive while a commit is in flight share the next transaction and
// its single fsync. Each write runs in its own savepoint, so one write's failure never fails its
// neighbours; writes run in arrival order, so resourceVersions are exactly those of a serial
// execution; and each caller hears back only after the COMMIT that holds its write has returned.
//
// SQLite may roll the whole transaction back on its own when a statement fails with SQLITE_FULL,
// SQLITE_IOERR, SQLITE_NOMEM or SQLITE_BUSY (https://sqlite.org/lang_transaction.html, "Response
// To Errors Within A Transaction"). Then the writes before it are gone, and a write run after it
// would autocommit on its own. So the connection is checked after every write: the write that
// was running is answered as not stored, and every other write of the batch runs again in a
// fresh transaction (nothing of theirs was seen by anyone). Each round drops one write, so a
// batch always ends.
import type { CommitObserver } from './ports/commit-observer';
import type { Statement } from 'better-sqlite3';
import type { DatabaseHandle } from './database';
import { readSnapshotOpen } from './read-snapshots';
import { WriteNotStoredError } from './ports/write-not-stored-error';

interface PendingWrite {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What became of one attempt at a batch. */
type Attempt =
  | { kind: 'committed'; outcomes: Outcome[] }
  /** The transaction was lost while `failed` ran: it fails; the others run again. */
  | { kind: 'aborted'; failed: number; error: unknown }
  /** BEGIN, COMMIT or the savepoint bookkeeping failed: nothing is stored, every write fails. */
  | { kind: 'failed'; error: unknown };

export class GroupCommitter {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private readonly statements: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', Statement>;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly observer?: CommitObserver,
  ) {
    const sqlite = handle.sqlite;
    this.statements = {
      begin: sqlite.prepare('BEGIN IMMEDIATE'),
      commit: sqlite.prepare('COMMIT'),
      rollback: sqlite.prepare('ROLLBACK'),
      savepoint: sqlite.prepare('SAVEPOINT group_commit_write'),
      release: sqlite.prepare('RELEASE group_commit_write'),
      rollbackTo: sqlite.prepare('ROLLBACK TO group_commit_write'),
    };
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

  /** Commits whatever is queued now (also used at shutdown). Every queued write is answered. */
  flush(): void {
    if (readSnapshotOpen(this.handle.sqlite)) {
      // A request's reads are open on this connection: a BEGIN now would fail (or end theirs).
      setImmediate(() => this.flush());
      return;
    }
    this.scheduled = false;
    let batch = this.queue;
    this.queue = [];
    while (batch.length) {
      const attempt = this.attempt(batch);
      if (attempt.kind === 'committed') {
        batch.forEach((pending, i) => {
          const outcome = attempt.outcomes[i];
          if (outcome.ok) pending.resolve(outcome.value);
          else pending.reject(outcome.error);
        });
        return;
      }
      if (attempt.kind === 'failed') {
        for (const pending of batch) pending.reject(new WriteNotStoredError(attempt.error));
        return;
      }
      batch[attempt.failed].reject(new WriteNotStoredError(attempt.error));
      batch = batch.filter((_, i) => i !== attempt.failed);
    }
  }

  private attempt(batch: readonly PendingWrite[]): Attempt {
    const s = this.statements;
    try {
      // A ROLLBACK that failed last time may have left the transaction open: end it first.
      if (this.handle.sqlite.inTransaction) s.rollback.run();
      s.begin.run();
    } catch (error) {
      return { kind: 'failed', error };
    }
    const outcomes: Outcome[] = [];
    for (let i = 0; i < batch.length; i++) {
      const outcome = this.inSavepoint(batch[i].work);
      if ('lost' in outcome) return this.abandon({ kind: 'failed', error: outcome.lost });
      // Checked after every write: a write run outside the transaction would autocommit alone.
      if (!this.handle.sqlite.inTransaction) {
        return { kind: 'aborted', failed: i, error: outcome.ok ? new Error('the transaction was rolled back') : outcome.error };
      }
      outcomes.push(outcome);
    }
    try {
      const started = process.hrtime.bigint();
      s.commit.run();
      this.observer?.committed(batch.length, Number(process.hrtime.bigint() - started) / 1e9);
    } catch (error) {
      // The transaction as a whole failed (disk full, I/O error): nothing in it is durable.
      return this.abandon({ kind: 'failed', error });
    }
    return { kind: 'committed', outcomes };
  }

  /** One write in its own savepoint; `lost` when the savepoint itself could not be opened or closed. */
  private inSavepoint(work: () => unknown): Outcome | { lost: unknown } {
    const s = this.statements;
    try {
      s.savepoint.run();
    } catch (error) {
      return { lost: error };
    }
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: work() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // SQLite already rolled everything back: there is no savepoint left to close.
    if (!this.handle.sqlite.inTransaction) return outcome;
    try {
      if (!outcome.ok) s.rollbackTo.run();
      s.release.run();
    } catch (error) {
      return { lost: error };
    }
    return outcome;
  }

  /** Rolls the transaction back; if even that fails, the next attempt tries again before BEGIN. */
  private abandon(attempt: Attempt): Attempt {
    try {
      if (this.handle.sqlite.inTransaction) this.statements.rollback.run();
    } catch {
      // Every write of the batch is answered as failed regardless; nothing of it was committed.
    }
    return attempt;
  }
}
