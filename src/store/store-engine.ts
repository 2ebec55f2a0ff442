// Which storage engine this process runs on, and its open handle. Providers whose implementation
// differs per engine (the write and read stores, the history repositories, the change log) pick
// theirs from the one STORE_ENGINE value, so nothing else needs to know which engine it is.
import type { DatabaseHandle } from './database';
import type { PostgresHandle } from './postgres/postgres-database';

export type StoreEngine = { kind: 'sqlite'; handle: DatabaseHandle } | { kind: 'postgres'; handle: PostgresHandle };

/** DI token of the open StoreEngine. */
export const STORE_ENGINE = Symbol('STORE_ENGINE');
