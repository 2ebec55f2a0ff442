// PostgreSQL's side of store-horizon.ts: the store's compaction horizon, and a fold's revisions
// brought to it (in the caller's transaction, on its connection: the fold's tables may be temporary).
import type { Queryable } from '../../store/postgres/postgres-database';
import { removeObjectsBelow } from '../../store/history-compaction';
import { PgSqlReader } from '../../store/postgres/pg-sql-reader';
import type { SqlOutcome, SqlStatement, SqlWriter } from '../../store/sql/sql-writer';
import type { ProjectionTable } from '../projection-row-fold';

/** The newest compaction's horizon (0: never compacted). */
export async function pgHorizon(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ horizon: number }>('SELECT coalesce(max(horizon_resource_version), 0) AS horizon FROM compactions');
  return Number(rows[0].horizon);
}

/** The SQL port on the caller's connection, inside the transaction it holds: a "transaction" is its statements, in order. */
function inOpenTransaction(client: Queryable): SqlWriter {
  const reader = new PgSqlReader(() => client);
  return Object.assign(reader, {
    async transaction(statements: readonly SqlStatement[]): Promise<SqlOutcome[]> {
      const out: SqlOutcome[] = [];
      for (const { sql, params } of statements) {
        const result = await client.query(sql, params as unknown[] | undefined);
        out.push({ rows: result.rows, changes: result.rowCount ?? 0 });
      }
      return out;
    },
  });
}

/**
 * Moves in a fold's tables (`folded`: a projection table's name there) the revisions a compaction
 * to `horizon` moved, with the compaction's own steps. Its batches walk the revisions by key:
 * a fold's tables without their indexes yet (`indexed` false: verify's, replay's) get one for it.
 */
export async function pgFoldToHorizon(client: Queryable, horizon: number, folded: (table: ProjectionTable) => string, indexed: boolean): Promise<void> {
  if (horizon <= 0) return;
  const revisions = folded('service_revisions');
  const index = 'svctrail_fold_horizon_key';
  if (!indexed) await client.query(`CREATE INDEX ${index} ON ${revisions} (uid, resource_version)`);
  await removeObjectsBelow(inOpenTransaction(client), horizon, { tables: { revisions, facts: folded('revision_facts'), lifetimes: folded('service_lifetimes') } });
  // Replay builds the live indexes on its tables afterwards; a temporary table's goes with it.
  if (!indexed) await client.query(`DROP INDEX ${index}`);
}
