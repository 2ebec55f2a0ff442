// Group commit on PostgreSQL, as the SQLite GroupCommitter does it: the writes one replica
// receives while its previous batch commits share the next transaction, its append lock and its
// one WAL flush; each runs in its own savepoint, so one write's failure (a refused step, a
// constraint) never fails its neighbours; they run in arrival order; and each caller hears back
// only after the COMMIT that holds its write has returned. One batch at a time per replica: a
// second one would only wait for the first's append lock while holding a connection.
//
// When the transaction itself is lost (the connection dies, a savepoint cannot be rolled back
// to), every write of the batch is answered as not stored; when COMMIT gets no answer, as
// outcome unknown. A write's own refusal keeps its own error.
//
// Before COMMIT the batch notifies WRITES_CHANNEL (pg-log-follower.ts): the hint that wakes the
// change feed of every replica.
import type { Pool } from 'pg';
import { DatabaseError } from 'pg';
import { DomainError } from '../../domain/errors/domain-errors';
import type { CommitObserver } from '../group-commit';
import { WriteNotStoredError } from '../write-not-stored-error';
import { WriteOutcomeUnknownError } from '../write-outcome-unknown-error';
import type { PgEventStore } from './pg-event-store';
import { WRITES_CHANNEL } from './pg-log-follower';
import { checkout } from './postgres-database';
import type { Queryable } from './postgres-database';

interface PendingWrite {
  work: (client: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const NOTIFY_HEAD = `SELECT pg_notify('${WRITES_CHANNEL}', (SELECT coalesce(max(position), 0) FROM events)::text)`;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The transaction holding the batch is gone: nothing of it is stored. */
class BatchLost extends Error {
  constructor(readonly storeError: unknown) {
    super('the transaction holding the batch was lost');
  }
}

export class PgGroupCommitter {
  private queue: PendingWrite[] = [];
  private draining = false;

  constructor(
    private readonly pool: Pool,
    private readonly events: PgEventStore,
    private readonly observer?: CommitObserver,
  ) {}

  /**
   * Runs `work` inside the next shared transaction, which holds the append lock; resolves after
   * that transaction commits. `work` must only query through the client it is given.
   */
  run<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.draining) return;
      this.draining = true;
      // Everything that arrives during this turn of the event loop joins the first batch.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      await this.commit(batch);
    }
    this.draining = false;
  }

  /** Commits one batch and answers every write of it. Never rejects. */
  private async commit(batch: PendingWrite[]): Promise<void> {
    let client: Awaited<ReturnType<typeof checkout>>;
    try {
      client = await checkout(this.pool);
    } catch (error) {
      for (const write of batch) write.reject(new WriteNotStoredError(error));
      return;
    }
    let broken: Error | undefined;
    try {
      let outcomes: Outcome[];
      try {
        await this.events.beginLocked(client);
        outcomes = [];
        for (const write of batch) outcomes.push(await this.inSavepoint(client, write));
        // Every replica's log follower hears of the batch at COMMIT (never on rollback) and reads it
        // from the log; the payload (the head) only lets a follower that is already there skip the read.
        if (outcomes.some((outcome) => outcome.ok)) await client.query(NOTIFY_HEAD);
      } catch (error) {
        const cause = error instanceof BatchLost ? error.storeError : error;
        broken = cause instanceof Error ? cause : new Error(String(cause));
        for (const write of batch) write.reject(new WriteNotStoredError(cause));
        return;
      }
      const started = process.hrtime.bigint();
      try {
        await client.query('COMMIT');
      } catch (error) {
        // The server refused the commit (it answered): rolled back. No answer: it may have committed.
        const failure = error instanceof DatabaseError ? new WriteNotStoredError(error) : new WriteOutcomeUnknownError(error);
        if (!(error instanceof DatabaseError)) broken = error as Error;
        batch.forEach((write, i) => write.reject(outcomes[i].ok ? failure : (outcomes[i] as { error: unknown }).error));
        return;
      }
      this.observer?.committed(batch.length, Number(process.hrtime.bigint() - started) / 1e9);
      batch.forEach((write, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) write.resolve(outcome.value);
        else write.reject(outcome.error);
      });
    } finally {
      client.releaseChecked(broken);
    }
  }

  /** One write in its own savepoint. Throws BatchLost when the transaction cannot go on. */
  private async inSavepoint(client: Queryable, write: PendingWrite): Promise<Outcome> {
    try {
      await client.query('SAVEPOINT group_commit_write');
    } catch (error) {
      throw new BatchLost(error);
    }
    try {
      const value = await write.work(client);
      await client.query('RELEASE SAVEPOINT group_commit_write');
      return { ok: true, value };
    } catch (error) {
      try {
        // Popped as well, so that a batch of many refusals does not nest savepoints.
        await client.query('ROLLBACK TO SAVEPOINT group_commit_write; RELEASE SAVEPOINT group_commit_write');
      } catch (rollbackError) {
        throw new BatchLost(rollbackError);
      }
      // A refusal of the step keeps its own error; anything else the database did is a write not stored.
      return { ok: false, error: error instanceof DomainError ? error : new WriteNotStoredError(error) };
    }
  }
}
