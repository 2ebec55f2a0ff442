// The history API's query services over the chosen store (a data directory's SQLite database or
// PostgreSQL), for the terminal: the CLI answers exactly what /apis/history.svctrail.io answers,
// from the same code and the same engine-neutral repositories, so the output is the same on both.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config/app-config';
import { ChangeLogService } from '../history/change-log.service';
import { ConditionAuditService } from '../history/condition-audit.service';
import { FieldOwnershipService } from '../history/field-ownership.service';
import { IngressHistoryService } from '../history/ingress-history.service';
import { openPgStore } from '../maintenance/postgres/pg-store-connection';
import { systemClock } from '../shared/clock';
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

export interface HistoryReader {
  changes: ChangeLogService;
  conditions: ConditionAuditService;
  ingress: IngressHistoryService;
  ownership: FieldOwnershipService;
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

export async function openHistory(store: CommandStore): Promise<HistoryReader> {
  const { stores, close } = await openReadOnlyStore(store);
  return {
    changes: new ChangeLogService(stores.changes, stores.reads),
    conditions: new ConditionAuditService(stores.conditions, stores.reads, systemClock),
    ingress: new IngressHistoryService(stores.ingress, stores.reads),
    ownership: new FieldOwnershipService(stores.changes, stores.reads),
    close,
  };
}

/** `namespace/name` → scope. */
export function serviceScope(ref: string | undefined): { namespace: string; name: string } {
  const match = ref ? /^([^/]+)\/([^/]+)$/.exec(ref) : null;
  if (!match) throw new UsageError('expected NAMESPACE/NAME');
  return { namespace: match[1], name: match[2] };
}

/** Keeps only the flags that were given, as query parameters for the history services. */
export function queryOf(values: Record<string, string | boolean | undefined>, names: Record<string, string>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [flag, param] of Object.entries(names)) {
    const v = values[flag];
    if (typeof v === 'string') query[param] = v;
  }
  return query;
}
