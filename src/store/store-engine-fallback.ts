// Until StoreModule provides STORE_ENGINE (branch pg-runtime), the providers that pick their
// implementation from it (history repositories, core/v1 Events) inject it optionally and fall
// back to the SQLite DATABASE this branch's StoreModule provides. At merge: inject STORE_ENGINE
// directly and delete this file.
import type { DatabaseHandle } from './database';
import { STORE_ENGINE } from './store-engine';
import type { StoreEngine } from './store-engine';
import { DATABASE } from './store.tokens';

/** Injection list for `storeEngineOrSqlite`'s two arguments. */
export const STORE_ENGINE_OR_SQLITE_INJECT = [
  { token: STORE_ENGINE, optional: true },
  { token: DATABASE, optional: true },
];

export function storeEngineOrSqlite(engine: StoreEngine | undefined, database: DatabaseHandle | undefined): StoreEngine {
  if (engine) return engine;
  if (!database) throw new Error('neither STORE_ENGINE nor DATABASE is provided');
  return { kind: 'sqlite', handle: database };
}
