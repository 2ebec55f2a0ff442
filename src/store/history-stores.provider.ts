// The history API's reads on the chosen engine: its repositories (one implementation each, over
// the engine's SQL reader) and the read store its services open snapshots with. On PostgreSQL
// they share one PgReadScope, so that every read of one history answer (head, window, page) runs
// in the same snapshot, as on SQLite's one connection.
import { ActivitySummaryRepository } from './activity-summary-repository';
import type { ActivitySummary } from './activity-summary-repository';
import { ChangeHistoryRepository } from './change-history-repository';
import type { ChangeHistory } from './change-history-repository';
import { ConditionHistoryRepository } from './condition-history-repository';
import type { ConditionHistory } from './condition-history-repository';
import { IngressHistoryRepository } from './ingress-history-repository';
import type { IngressHistory } from './ingress-history-repository';
import { PgReadScope } from './postgres/history/pg-read-scope';
import { PgSqlReader } from './postgres/pg-sql-reader';
import type { ServiceReadStore } from './ports/service-read-store';
import { ServiceReadRepository } from './service-read-repository';
import type { SqlReader } from './sql/sql-reader';
import { SqliteSqlReader } from './sqlite-sql-reader';
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
  let db: SqlReader;
  if (engine.kind === 'sqlite') {
    db = new SqliteSqlReader(engine.handle);
  } else {
    const scope = new PgReadScope(engine.handle.historyPool);
    db = new PgSqlReader(() => scope.db);
    reads = new ServiceReadRepository(db, scope);
  }
  return {
    reads,
    changes: new ChangeHistoryRepository(db),
    conditions: new ConditionHistoryRepository(db),
    ingress: new IngressHistoryRepository(db),
    activity: new ActivitySummaryRepository(db),
  };
}
