// The history API's query services over the chosen store (a data directory's SQLite database or
// PostgreSQL), for the terminal: the CLI answers exactly what /apis/history.svctrail.io answers,
// from the same code and the same engine-neutral repositories, so the output is the same on both.
import { ChangeLogService } from '../history/change-log.service';
import { ConditionAuditService } from '../history/condition-audit.service';
import { EventHistoryService } from '../history/event-history.service';
import { FieldOwnershipService } from '../history/field-ownership.service';
import { IngressHistoryService } from '../history/ingress-history.service';
import { systemClock } from '../shared/clock';
import { openReadOnlyStore } from './read-only-store';
import type { CommandStore } from './storage-option';
import { UsageError } from './usage-error';

export interface HistoryReader {
  changes: ChangeLogService;
  conditions: ConditionAuditService;
  ingress: IngressHistoryService;
  ownership: FieldOwnershipService;
  events: EventHistoryService;
  close(): Promise<void>;
}

export async function openHistory(store: CommandStore): Promise<HistoryReader> {
  const { stores, observations, actors, close } = await openReadOnlyStore(store);
  return {
    changes: new ChangeLogService(stores.changes, stores.reads, observations, actors),
    conditions: new ConditionAuditService(stores.conditions, stores.reads, systemClock, observations, actors),
    ingress: new IngressHistoryService(stores.ingress, stores.reads, observations, actors),
    ownership: new FieldOwnershipService(stores.changes, stores.reads, observations),
    events: new EventHistoryService(stores.events, stores.reads, observations, actors),
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
