// The history API's repositories over an engine's SQL reader: one implementation each, whatever
// the engine. Each engine builds its reader and read store (sqlite-history-stores.ts,
// postgres/pg-history-stores.ts) and hands them here.
import { ActivitySummaryRepository } from './activity-summary-repository';
import { ChangeHistoryRepository } from './change-history-repository';
import { ConditionHistoryRepository } from './condition-history-repository';
import { IngressHistoryRepository } from './ingress-history-repository';
import { KubeEventHistoryRepository } from './kube-event-history-repository';
import type { HistoryStores } from './ports/history-stores';
import type { ServiceReadStore } from './ports/service-read-store';
import type { SqlReader } from './sql/sql-reader';

/** `reads`: what the history services open snapshots with; it must cover `db`'s reads. */
export function historyRepositories(db: SqlReader, reads: ServiceReadStore): HistoryStores {
  return {
    reads,
    changes: new ChangeHistoryRepository(db),
    conditions: new ConditionHistoryRepository(db),
    ingress: new IngressHistoryRepository(db),
    activity: new ActivitySummaryRepository(db),
    events: new KubeEventHistoryRepository(db),
  };
}
