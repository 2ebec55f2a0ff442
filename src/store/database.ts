// Opens the SQLite file, sets the pragmas durability depends on, checks integrity and applies
// the drizzle-kit migrations. Nothing else opens the database.
import Database from 'better-sqlite3';
import { drizzle, BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';

export type Drizzle = BetterSQLite3Database<typeof schema>;

export interface DatabaseHandle {
  readonly sqlite: Database.Database;
  readonly db: Drizzle;
  close(): void;
}

export interface OpenDatabaseOptions {
  path: string;
  migrationsFolder: string;
  /** FULL: every acknowledged commit survives power loss. NORMAL: survives a process crash only. */
  synchronous: 'FULL' | 'NORMAL';
  readonly?: boolean;
  /** Checkpoint and truncate the WAL after migrating (default true). A TRUNCATE checkpoint holds
   *  the write lock while it copies the whole WAL: a tool opening a served database passes false. */
  truncateWal?: boolean;
}

export class DamagedDatabaseError extends Error {}

export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  const sqlite = new Database(options.path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  try {
    if (!options.readonly) sqlite.pragma('journal_mode = WAL');
    sqlite.pragma(`synchronous = ${options.synchronous}`);
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    const check = sqlite.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new DamagedDatabaseError(`database ${options.path} failed its integrity check: ${String(check)}`);
    const db = drizzle(sqlite, { schema });
    if (!options.readonly) {
      migrate(db, { migrationsFolder: options.migrationsFolder });
      // Start from an empty WAL: a migration (or a crash) can leave hundreds of MB in it, and
      // every read then searches the WAL index before the database file.
      if (options.truncateWal ?? true) sqlite.pragma('wal_checkpoint(TRUNCATE)');
    }
    return { sqlite, db, close: () => sqlite.close() };
  } catch (error) {
    sqlite.close();
    if (error instanceof DamagedDatabaseError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/malformed|not a database|corrupt/i.test(message)) {
      throw new DamagedDatabaseError(`database ${options.path} is damaged and will not be served: ${message}`);
    }
    throw error;
  }
}
