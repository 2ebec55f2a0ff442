// What the store takes from the configuration, declared here so that config/ depends on the store's
// port and never the other way round: AppConfig satisfies StoreSettings as it is.

/** The engine chosen by `--storage` / SVCTRAIL_STORAGE: embedded SQLite unless a postgres:// URL is given. */
export type StorageChoice = { engine: 'sqlite' } | { engine: 'postgres'; url: string };

export interface StoreSettings {
  storage: StorageChoice;
  /** SQLite's database file (in the data directory); unused on PostgreSQL. */
  databasePath: string;
  /** SQLite's migrations; PostgreSQL's are beside them (`postgres/`). */
  migrationsFolder: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
}
