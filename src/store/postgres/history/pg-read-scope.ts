// The connection a PostgreSQL history read runs on. A history answer reads its head, then its
// page, in several queries: on the pool each would see whatever committed meanwhile (an ingress
// interval closed after the head the answer reports). Inside `inSnapshot` every read of the
// history repositories and of the history read store runs on one REPEATABLE READ READ ONLY
// transaction instead, found through AsyncLocalStorage, so the repositories keep the SQLite
// classes' API (on SQLite the one connection's snapshot gives the same guarantee, read-snapshots.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool } from 'pg';
import { checkout } from '../postgres-database';
import type { Queryable } from '../postgres-database';

/** A snapshot's connection, while its transaction is open. */
interface OpenSnapshot {
  client: Queryable;
  open: boolean;
}

export class PgReadScope {
  private readonly current = new AsyncLocalStorage<OpenSnapshot>();

  constructor(readonly pool: Pool) {}

  /** The snapshot's connection inside `inSnapshot`, else the pool (each query its own snapshot). */
  get db(): Queryable {
    return this.snapshot()?.client ?? this.pool;
  }

  /** Whether the caller runs inside a snapshot. */
  get inside(): boolean {
    return this.snapshot() !== undefined;
  }

  /**
   * The caller's snapshot while it is open. A callback started inside one and run after it ended
   * (a timer, a subscription) still carries it: it reads from the pool, never a released connection.
   */
  private snapshot(): OpenSnapshot | undefined {
    const snapshot = this.current.getStore();
    return snapshot?.open ? snapshot : undefined;
  }

  /** Runs `reads` in one snapshot (joining the caller's, when it already runs in one). */
  async inSnapshot<T>(reads: () => Promise<T>): Promise<T> {
    if (this.inside) return reads();
    const client = await checkout(this.pool);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot: OpenSnapshot = { client, open: true };
      try {
        return await this.current.run(snapshot, reads);
      } finally {
        snapshot.open = false;
        // Read only: ending it either way changes nothing; COMMIT also ends an aborted one.
        await client.query('COMMIT').catch((error: Error) => (broken = error));
      }
    } catch (error) {
      broken ??= error instanceof Error && !('code' in error) ? error : undefined;
      throw error;
    } finally {
      client.releaseChecked(broken);
    }
  }
}
