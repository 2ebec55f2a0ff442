// The store a query command reads, opened so that it stays as it was: the history repositories
// and read store of either engine (sqlite-history-stores.ts, pg-history-stores.ts), the ones the
// API reads through.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../shared/project-root';
import { openPgStore } from '../maintenance/postgres/pg-store-connection';
import { openDatabase } from '../store/database';
import { pgHistoryStores } from '../store/postgres/pg-history-stores';
import { sqliteHistoryStores } from '../store/sqlite-history-stores';
import type { HistoryStores } from '../store/ports/history-stores';
import { SqliteServiceReadStore } from '../store/sqlite-service-read-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import { PgMirrorSourceStore } from '../store/postgres/pg-mirror-source-store';
import { SqliteMirrorSourceStore } from '../store/sqlite-mirror-source-store';
import type { AuditActorStore } from '../store/ports/audit-actor-store';
import { PgAuditActorStore } from '../store/postgres/pg-audit-actor-store';
import { SqliteAuditActorStore } from '../store/sqlite-audit-actor-store';
import type { CommandStore } from './storage-option';
import { UsageError } from './usage-error';

/** The store's history repositories and read store, opened read-only. */
export interface ReadOnlyStore {
  stores: HistoryStores;
  /** Where each recorded write came from, when the store is a mirror's (as the API adds it). */
  observations?: MirrorObservations;
  /** Who made each mirrored write, as audit events told it. */
  actors?: Pick<AuditActorStore, 'actors'>;
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
    // A store written before mirror mode has no such table: it mirrors nothing.
    const mirrored = await handle.pool.query('SELECT 1 FROM mirror_source').then(
      (r) => r.rowCount! > 0,
      () => false,
    );
    return {
      stores: pgHistoryStores(handle),
      ...(mirrored ? { observations: new PgMirrorSourceStore(handle.pool), actors: new PgAuditActorStore(handle.pool) } : {}),
      close: () => handle.close(),
    };
  }
  const path = join(store.dataDir, 'svctrail.db');
  if (!existsSync(path)) throw new UsageError(`no svctrail database in ${store.dataDir} (use --data-dir, or --storage postgres://…)`);
  const handle = openDatabase({ path, migrationsFolder: join(PROJECT_ROOT, 'migrations'), synchronous: 'NORMAL', readonly: true });
  // A store written before the audit join (migration 0009) is read as one: this reader needs its tables.
  const mirrored = handle.sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'audit_actors'").get() !== undefined && handle.sqlite.prepare('SELECT 1 FROM mirror_source').get() !== undefined;
  return {
    stores: sqliteHistoryStores(handle, new SqliteServiceReadStore(handle)),
    ...(mirrored ? { observations: new SqliteMirrorSourceStore(handle), actors: new SqliteAuditActorStore(handle) } : {}),
    close: async () => handle.close(),
  };
}
