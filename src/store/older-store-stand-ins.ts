// A store written by an older svctrail, opened read-only (a query command, export, verify, a
// point-in-time copy), is not migrated: it must stay as it was, and a running server may be
// serving it. Stand-ins on this connection only, in its temp schema (which unqualified names search
// first), let every reader run on it as on a migrated store. Writers never see them: a writable
// open migrates instead.
import type Database from 'better-sqlite3';

const exists = (sqlite: Database.Database, name: string) => sqlite.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(name) !== undefined;

/** Every stand-in an older store needs; a store as new as the code gets none. */
export function standInForOlderSchema(sqlite: Database.Database): void {
  if (!exists(sqlite, 'events')) return;
  standInForCompaction(sqlite);
  standInForKubeEvents(sqlite);
  standInForDenseEvents(sqlite);
}

/**
 * Whether `events` here is the dense-events stand-in (a view): no `INDEXED BY` can name its
 * indexes, so readers leave the choice to the planner, which still uses them (the view is
 * flattened into each query).
 */
export function eventsStoodIn(sqlite: Database.Database): boolean {
  return sqlite.prepare(`SELECT 1 FROM sqlite_temp_schema WHERE type = 'view' AND name = 'events'`).get() !== undefined;
}

/**
 * Before compaction (migration 0010) a store was never compacted: empty tables. (The reads use the
 * horizon only, never the checksums of migration 0011, so a store from before 0011 needs none.)
 */
function standInForCompaction(sqlite: Database.Database): void {
  if (exists(sqlite, 'compactions')) return;
  sqlite.exec(`CREATE TEMP TABLE compactions (id INTEGER PRIMARY KEY, horizon_resource_version INTEGER NOT NULL, horizon_time TEXT NOT NULL, actor_user TEXT NOT NULL,
    started_at TEXT NOT NULL, finished_at TEXT, removed_writes INTEGER NOT NULL, removed_objects INTEGER NOT NULL, removed_bytes INTEGER NOT NULL,
    facts_checksum TEXT, facts_checksum_after INTEGER)`);
  sqlite.exec(`CREATE TEMP TABLE revision_facts (uid TEXT NOT NULL, resource_version INTEGER NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, recorded_at TEXT NOT NULL,
    managed_fields TEXT, patch TEXT NOT NULL, PRIMARY KEY (uid, resource_version))`);
}

/** Before controllers' Events (migration 0012) a store held none: an empty table. */
function standInForKubeEvents(sqlite: Database.Database): void {
  if (exists(sqlite, 'kube_event_occurrences')) return;
  sqlite.exec(`CREATE TEMP TABLE kube_event_occurrences (resource_version INTEGER PRIMARY KEY, uid TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
    involved_kind TEXT NOT NULL, involved_namespace TEXT NOT NULL, involved_name TEXT NOT NULL, involved_uid TEXT NOT NULL, type TEXT NOT NULL, reason TEXT NOT NULL,
    reporting_controller TEXT NOT NULL)`);
  sqlite.exec('CREATE INDEX temp.kube_event_occurrences_involved ON kube_event_occurrences (involved_namespace, involved_name, resource_version)');
  sqlite.exec('CREATE INDEX temp.kube_event_occurrences_namespace ON kube_event_occurrences (namespace, resource_version)');
}

/**
 * Before dense events (migration 0014) every event held its data and repeated texts as text, and
 * before dense actors (0015) its actor user: a view adds the columns of the dense form the store
 * lacks, empty, so each row reads as one not yet converted (and, before 0014, an empty table of
 * repeated texts).
 */
function standInForDenseEvents(sqlite: Database.Database): void {
  const columns = sqlite.prepare("SELECT name FROM pragma_table_info('events', 'main')").pluck().all() as string[];
  if (columns.includes('actor_user_id')) return;
  const missing = columns.includes('packed_data') ? [] : ['packed_data', 'actor_groups_id', 'user_agent_id', 'field_manager_id'];
  sqlite.exec(`CREATE TEMP VIEW events AS SELECT *, ${[...missing, 'actor_user_id'].map((column) => `NULL AS ${column}`).join(', ')} FROM main.events`);
  if (!columns.includes('packed_data')) sqlite.exec('CREATE TEMP TABLE repeated_texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
}
