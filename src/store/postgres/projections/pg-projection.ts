// A projection on PostgreSQL: the same decisions as its SQLite twin in src/projections (which rows
// a committed write adds, changes or removes), written as PostgreSQL statements on the append
// transaction's connection.
import type { CommittedWrite } from '../../../projections/projection';
import type { Queryable } from '../postgres-database';

export interface PgProjection {
  readonly name: string;
  /** Tables this projection owns. */
  readonly tables: readonly string[];
  apply(client: Queryable, write: CommittedWrite): Promise<void>;
}
