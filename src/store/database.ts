// Opens the SQLite file, sets the pragmas durability depends on, checks that it is a database and
// applies the drizzle-kit migrations. Nothing else opens the database.
//
// Start-up does not read the whole file: after a crash SQLite's own WAL recovery restores the
// last committed state on first access, and the check here is a cheap one (the header, the
// schema and the right edge of the log). The full `PRAGMA integrity_check` is
// `svctrail integrity-check`, run on request: on a 2 GB store it reads every page.
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { closeSync, openSync } from 'node:fs';
import { standInForOlderSchema } from './older-store-stand-ins';
import { backfillRevisionPatches } from './revision-patch-backfill';
import * as schema from './schema';

export type Drizzle = BetterSQLite3Database<typeof schema>;

export interface DatabaseHandle {
  readonly sqlite: Database.Database;
  readonly db: Drizzle;
  /**
   * A prepared statement for SQL assembled at run time from fixed clauses (which filters a query
   * has), prepared once per text instead of on every call.
   */
  statement(sql: string): Database.Statement;
  close(): void;
}

/** More distinct texts than the handful of clause combinations means something builds SQL from data. */
const MAX_CACHED_STATEMENTS = 256;

function statementCache(sqlite: Database.Database): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
      statement = sqlite.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

export interface OpenDatabaseOptions {
  path: string;
  migrationsFolder: string;
  /** FULL: every acknowledged commit survives power loss. NORMAL: survives a process crash only. */
  synchronous: 'FULL' | 'NORMAL';
  /**
   * Only read: no migrations, no checkpoint, no write lock, so that a reader never makes a
   * running server's writers wait. The file must exist.
   */
  readonly?: boolean;
  /** Checkpoint and truncate the WAL after migrating (default true). A TRUNCATE checkpoint holds
   *  the write lock while it copies the whole WAL: a tool opening a served database passes false. */
  truncateWal?: boolean;
}

export class DamagedDatabaseError extends Error {}

/** The database, its WAL and shared-memory files hold every Service and who changed it. */
export const DATABASE_FILE_MODE = 0o600;

export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  const readonly = options.readonly ?? false;
  // SQLite creates files 0644 and gives the -wal and -shm files the database file's mode, so a
  // database created here first (0600) keeps all three private.
  if (!readonly) createPrivately(options.path, DATABASE_FILE_MODE);
  const sqlite = new Database(options.path, { readonly, fileMustExist: true });
  try {
    // Before any table exists (a new file) this is all it takes; an older store is converted
    // once, below. Pages a compaction frees then go back to the file system (history-compaction.ts).
    if (!readonly) sqlite.pragma('auto_vacuum = INCREMENTAL');
    if (!readonly) sqlite.pragma('journal_mode = WAL');
    sqlite.pragma(`synchronous = ${options.synchronous}`);
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // A write's savepoint journals the original of every page it dirties; past 64 KiB SQLite
    // spills that to a temp file, created and unlinked on every status write. Keep it in memory.
    sqlite.pragma('temp_store = MEMORY');
    checkStructure(sqlite);
    const db = drizzle(sqlite, { schema });
    if (!readonly) {
      migrate(db, { migrationsFolder: options.migrationsFolder });
      backfillRevisionPatches(sqlite);
      convertToIncrementalVacuum(sqlite);
      // Start from an empty WAL: a migration (or a crash) can leave hundreds of MB in it, and
      // every read then searches the WAL index before the database file.
      if (options.truncateWal ?? true) sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } else {
      standInForOlderSchema(sqlite);
    }
    return { sqlite, db, statement: statementCache(sqlite), close: () => sqlite.close() };
  } catch (error) {
    sqlite.close();
    throw asDamaged(error, options.path);
  }
}

/** auto_vacuum = INCREMENTAL (2), for a store created before it was the default: one VACUUM rewrites the file. */
function convertToIncrementalVacuum(sqlite: Database.Database): void {
  if (sqlite.pragma('auto_vacuum', { simple: true }) === 2) return;
  sqlite.pragma('auto_vacuum = INCREMENTAL');
  sqlite.exec('VACUUM');
}

/**
 * `PRAGMA integrity_check` (every page, index and constraint) or `quick_check` (no index
 * contents): the problems found, empty when the database is sound.
 */
export function checkIntegrity(handle: DatabaseHandle, depth: 'full' | 'quick'): string[] {
  let rows: Record<string, string>[];
  try {
    rows = handle.sqlite.pragma(depth === 'full' ? 'integrity_check' : 'quick_check', { simple: false }) as Record<string, string>[];
  } catch (error) {
    // Damage bad enough to stop the check itself is its finding.
    if ((error as { code?: string }).code?.startsWith('SQLITE_CORRUPT') || (error as { code?: string }).code === 'SQLITE_NOTADB') return [(error as Error).message];
    throw error;
  }
  const messages = rows.map((row) => Object.values(row)[0]);
  return messages.length === 1 && messages[0] === 'ok' ? [] : messages;
}

/**
 * The cheap start-up check: reading the schema parses the header and every table definition,
 * and the newest event walks the log's B-tree down its right edge. A file that is not a
 * database, or whose schema or log tail is damaged, fails here in milliseconds.
 */
function checkStructure(sqlite: Database.Database): void {
  const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
  if (tables.includes('events')) sqlite.prepare('SELECT * FROM events ORDER BY position DESC LIMIT 1').get();
}

function asDamaged(error: unknown, path: string): unknown {
  if (error instanceof DamagedDatabaseError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/malformed|not a database|corrupt/i.test(message)) {
    return new DamagedDatabaseError(`database ${path} is damaged and will not be served: ${message}`);
  }
  return error;
}

/**
 * Creates an empty file with `mode` unless one exists. Never opens an existing file: closing any
 * descriptor of a file drops every POSIX lock this process holds on it, SQLite's included.
 */
export function createPrivately(path: string, mode: number): void {
  try {
    closeSync(openSync(path, 'wx', mode));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
