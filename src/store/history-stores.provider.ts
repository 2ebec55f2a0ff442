// The history API's reads on the chosen engine: its repositories and the read store its services
// open snapshots with. On PostgreSQL they share one PgReadScope, so that every read of one
// history answer (head, window, page) runs in the same snapshot, as on SQLite's one connection.
import { ActivitySummaryRepository } from './activity-summary-repository';
import type { ActivitySummary } from './activity-summary-repository';
import { ChangeHistoryRepository } from './change-history-repository';
import type { ChangeHistory } from './change-history-repository';
import { ConditionHistoryRepository } from './condition-history-repository';
import type { ConditionHistory } from './condition-history-repository';
import { IngressHistoryRepository } from './ingress-history-repository';
import type { IngressHistory } from './ingress-history-repository';
import { PgActivitySummary } from './postgres/history/pg-activity-summary';
import { PgChangeHistory } from './postgres/history/pg-change-history';
import { PgConditionHistory } from './postgres/history/pg-condition-history';
import { PgHistoryReadStore } from './postgres/history/pg-history-read-store';
import { PgIngressHistory } from './postgres/history/pg-ingress-history';
import { PgReadScope } from './postgres/history/pg-read-scope';
import type { ServiceReadStore } from './ports/service-read-store';
import type { StoreEngine } from './store-engine';

export interface HistoryStores {
  /** What history services read heads and windows through and open snapshots with. */
  reads: ServiceReadStore;
  changes: ChangeHistory;
  conditions: ConditionHistory;
  ingress: IngressHistory;
  activity: ActivitySummary;
}

/** DI token of the engine's HistoryStores. */
export const HISTORY_STORES = Symbol('HISTORY_STORES');

/** DI token of the ServiceReadStore the history services use (HistoryStores.reads). */
export const HISTORY_READ_STORE = Symbol('HISTORY_READ_STORE');

/** `reads`: the engine's SERVICE_READ_STORE (SQLite's snapshots already cover the repositories). */
export function historyStoresFor(engine: StoreEngine, reads: ServiceReadStore): HistoryStores {
  if (engine.kind === 'sqlite') {
    const handle = engine.handle;
    return {
      reads,
      changes: new ChangeHistoryRepository(handle),
      conditions: new ConditionHistoryRepository(handle),
      ingress: new IngressHistoryRepository(handle),
      activity: new ActivitySummaryRepository(handle),
    };
  }
  const scope = new PgReadScope(engine.handle.historyPool);
  return {
    reads: new PgHistoryReadStore(scope),
    changes: new PgChangeHistory(scope),
    conditions: new PgConditionHistory(scope),
    ingress: new PgIngressHistory(scope),
    activity: new PgActivitySummary(scope),
  };
}
