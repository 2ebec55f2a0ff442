// The store a query command reads, opened so that it stays as it was: the history repositories
// and read store of either engine (history-stores.provider.ts), the ones the API reads through.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config/app-config';
import { openPgStore } from '../maintenance/postgres/pg-store-connection';
import { openDatabase } from '../store/database';
import { historyStoresFor } from '../store/history-stores.provider';
import type { HistoryStores } from '../store/history-stores.provider';
import { PgServiceReadStore } from '../store/postgres/pg-service-read-store';
import { SqliteServiceReadStore } from '../store/sqlite-service-read-store';
import type { CommandStore } from './storage-option';
import { UsageError } from './usage-error';

/** The store's history repositories and read store, opened read-only. */
export interface ReadOnlyStore {
  stores: HistoryStores;
  close(): Promise<void>;
}

/**
 * Opens the store without changing it: SQLite read-only and unmigrated (no checkpoint, no
 * integrity check: a running server's database answers as it is); PostgreSQL in read-only
 * sessions, refused (nothing created) when the server is unreachable or the database holds no store.
 */
export async function openReadOnlyStore(store: CommandStore): Promise<ReadOnlyStore> {
  if (store.engine === 'postgres') {
    // Two connections: a snapshot's, and the pool's reads outside one.
    const handle = await openPgStore(store.url, { existing: true, max: 2, readOnly: true });
    const engine = { kind: 'postgres', handle } as const;
    return { stores: historyStoresFor(engine, new PgServiceReadStore(handle.pool)), close: () => handle.close() };
  }
  const path = join(store.dataDir, 'svctrail.db');
  if (!existsSync(path)) throw new UsageError(`no svctrail database in ${store.dataDir} (use --data-dir, or --storage postgres://…)`);
  const handle = openDatabase({ path, migrationsFolder: join(PROJECT_ROOT, 'migrations'), synchronous: 'NORMAL', readonly: true });
  const engine = { kind: 'sqlite', handle } as const;
  return { stores: historyStoresFor(engine, new SqliteServiceReadStore(handle)), close: async () => handle.close() };
}
