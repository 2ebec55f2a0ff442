// PostgreSQL's side of store-horizon.ts: the store's compaction horizon, and a fold's revisions
// brought to it (in the caller's transaction, on its connection: the fold's tables may be temporary).
import type { Queryable } from '../../store/postgres/postgres-database';
import { compactionStatements } from '../../store/history-compaction';
import type { ProjectionTable } from '../projection-row-fold';

/** The newest compaction's horizon (0: never compacted). */
export async function pgHorizon(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ horizon: number }>('SELECT coalesce(max(horizon_resource_version), 0) AS horizon FROM compactions');
  return Number(rows[0].horizon);
}

/** Moves in a fold's tables (`folded`: a projection table's name there) the revisions a compaction to `horizon` moved. */
export async function pgFoldToHorizon(client: Queryable, horizon: number, folded: (table: ProjectionTable) => string): Promise<void> {
  if (horizon <= 0) return;
  const { keep, remove } = compactionStatements('postgres', { revisions: folded('service_revisions'), facts: folded('revision_facts'), lifetimes: folded('service_lifetimes') }, true);
  await client.query(keep, [horizon]);
  await client.query(remove, [horizon]);
}
