// The history API's query services over a data directory's database, for the terminal: the CLI
// answers exactly what /apis/history.svctrail.io answers, from the same code.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config/app-config';
import { ChangeLogService } from '../history/change-log.service';
import { ConditionAuditService } from '../history/condition-audit.service';
import { FieldOwnershipService } from '../history/field-ownership.service';
import { IngressHistoryService } from '../history/ingress-history.service';
import { systemClock } from '../shared/clock';
import { ChangeHistoryRepository } from '../store/change-history-repository';
import { ConditionHistoryRepository } from '../store/condition-history-repository';
import { DatabaseHandle, openDatabase } from '../store/database';
import { IngressHistoryRepository } from '../store/ingress-history-repository';
import { SqliteServiceReadStore } from '../store/sqlite-service-read-store';
import { UsageError } from './usage-error';

export interface HistoryReader {
  changes: ChangeLogService;
  conditions: ConditionAuditService;
  ingress: IngressHistoryService;
  ownership: FieldOwnershipService;
  close(): void;
}

export function openHistory(dataDir: string): HistoryReader {
  const path = join(dataDir, 'svctrail.db');
  if (!existsSync(path)) throw new UsageError(`no svctrail database in ${dataDir} (use --data-dir)`);
  const handle: DatabaseHandle = openDatabase({ path, migrationsFolder: join(PROJECT_ROOT, 'migrations'), synchronous: 'NORMAL', readonly: true });
  const reads = new SqliteServiceReadStore(handle);
  const changes = new ChangeHistoryRepository(handle);
  return {
    changes: new ChangeLogService(changes, reads),
    conditions: new ConditionAuditService(new ConditionHistoryRepository(handle), reads, systemClock),
    ingress: new IngressHistoryService(new IngressHistoryRepository(handle), reads),
    ownership: new FieldOwnershipService(changes, reads),
    close: () => handle.close(),
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
