// The history API's reads on SQLite: its one connection's snapshots already cover every
// repository, so they read through the engine's own read store.
import type { DatabaseHandle } from './database';
import { historyRepositories } from './history-repositories';
import type { HistoryStores } from './ports/history-stores';
import type { ServiceReadStore } from './ports/service-read-store';
import { SqliteSqlReader } from './sqlite-sql-reader';

export function sqliteHistoryStores(handle: DatabaseHandle, reads: ServiceReadStore): HistoryStores {
  return historyRepositories(new SqliteSqlReader(handle), reads);
}
