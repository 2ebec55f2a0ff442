// The store a query command reads, opened so that it stays as it was: the history repositories
// and read store of either engine (sqlite-history-stores.ts, pg-history-stores.ts), the ones the
// API reads through.
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
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
  standInForCompaction(handle.sqlite);
  standInForEvents(handle.sqlite);
  // A store written before the audit join (migration 0009) is read as one: this reader needs its tables.
  const mirrored = handle.sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'audit_actors'").get() !== undefined && handle.sqlite.prepare('SELECT 1 FROM mirror_source').get() !== undefined;
  return {
    stores: sqliteHistoryStores(handle, new SqliteServiceReadStore(handle)),
    ...(mirrored ? { observations: new SqliteMirrorSourceStore(handle), actors: new SqliteAuditActorStore(handle) } : {}),
    close: async () => handle.close(),
  };
}

/**
 * A store written before compaction (migration 0010), read unmigrated, was never compacted: empty
 * stand-ins on this connection only (its temp schema, which unqualified names search first) let
 * every read run as on a migrated store. (The reads use the horizon only, never the checksums of
 * migration 0011, so a store from before 0011 needs none.)
 */
function standInForCompaction(sqlite: Database.Database): void {
  if (sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'compactions'").get() !== undefined) return;
  sqlite.exec(`CREATE TEMP TABLE compactions (id INTEGER PRIMARY KEY, horizon_resource_version INTEGER NOT NULL, horizon_time TEXT NOT NULL, actor_user TEXT NOT NULL,
    started_at TEXT NOT NULL, finished_at TEXT, removed_writes INTEGER NOT NULL, removed_objects INTEGER NOT NULL, removed_bytes INTEGER NOT NULL,
    facts_checksum TEXT, facts_checksum_after INTEGER)`);
  sqlite.exec(`CREATE TEMP TABLE revision_facts (uid TEXT NOT NULL, resource_version INTEGER NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, recorded_at TEXT NOT NULL,
    managed_fields TEXT, patch TEXT NOT NULL, PRIMARY KEY (uid, resource_version))`);
}

/** A store written before controllers' Events (migration 0012) holds none: an empty stand-in, as above. */
function standInForEvents(sqlite: Database.Database): void {
  if (sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'kube_event_occurrences'").get() !== undefined) return;
  sqlite.exec(`CREATE TEMP TABLE kube_event_occurrences (resource_version INTEGER PRIMARY KEY, uid TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
    involved_kind TEXT NOT NULL, involved_namespace TEXT NOT NULL, involved_name TEXT NOT NULL, involved_uid TEXT NOT NULL, type TEXT NOT NULL, reason TEXT NOT NULL,
    reporting_controller TEXT NOT NULL)`);
  sqlite.exec('CREATE INDEX temp.kube_event_occurrences_involved ON kube_event_occurrences (involved_namespace, involved_name, resource_version)');
  sqlite.exec('CREATE INDEX temp.kube_event_occurrences_namespace ON kube_event_occurrences (namespace, resource_version)');
}
