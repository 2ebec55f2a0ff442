// The history API's reads on PostgreSQL: every repository and the read store share one
// PgReadScope, so that every read of one history answer (head, window, page) runs in the same
// snapshot, as on SQLite's one connection.
import { historyRepositories } from '../history-repositories';
import type { HistoryStores } from '../ports/history-stores';
import { ServiceReadRepository } from '../service-read-repository';
import { PgReadScope } from './history/pg-read-scope';
import { PgSqlReader } from './pg-sql-reader';
import type { PostgresHandle } from './postgres-database';

export function pgHistoryStores(handle: Pick<PostgresHandle, 'historyPool'>): HistoryStores {
  const scope = new PgReadScope(handle.historyPool);
  const db = new PgSqlReader(() => scope.db);
  return historyRepositories(db, new ServiceReadRepository(db, scope));
}
