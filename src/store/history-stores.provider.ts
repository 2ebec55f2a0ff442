// The history API's reads on the chosen engine: its repositories (one implementation each, over
// the engine's SQL reader) and the read store its services open snapshots with. On PostgreSQL
// they share one PgReadScope, so that every read of one history answer (head, window, page) runs
// in the same snapshot, as on SQLite's one connection.
import { ActivitySummaryRepository } from './activity-summary-repository';
import { ChangeHistoryRepository } from './change-history-repository';
import { ConditionHistoryRepository } from './condition-history-repository';
import { IngressHistoryRepository } from './ingress-history-repository';
import { PgReadScope } from './postgres/history/pg-read-scope';
import { PgSqlReader } from './postgres/pg-sql-reader';
import type { HistoryStores } from './ports/history-stores';
import type { ServiceReadStore } from './ports/service-read-store';
import { ServiceReadRepository } from './service-read-repository';
import type { SqlReader } from './sql/sql-reader';
import { SqliteSqlReader } from './sqlite-sql-reader';
import type { StoreEngine } from './store-engine';

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
