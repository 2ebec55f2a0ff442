// What the history API reads through, whatever the engine: its repositories and the read store its
// services open snapshots with, provided together (each engine's sqlite-history-stores.ts or postgres/pg-history-stores.ts builds them).
import type { ActivitySummary } from './activity-summary';
import type { ChangeHistory } from './change-history';
import type { ConditionHistory } from './condition-history';
import type { IngressHistory } from './ingress-history';
import type { KubeEventHistory } from './kube-event-history';
import type { ServiceReadStore } from './service-read-store';

export interface HistoryStores {
  /** What history services read heads and windows through and open snapshots with. */
  reads: ServiceReadStore;
  changes: ChangeHistory;
  conditions: ConditionHistory;
  ingress: IngressHistory;
  activity: ActivitySummary;
  events: KubeEventHistory;
}

/** DI token of the engine's HistoryStores. */
export const HISTORY_STORES = Symbol('HISTORY_STORES');

/** DI token of the ServiceReadStore the history services use (HistoryStores.reads). */
export const HISTORY_READ_STORE = Symbol('HISTORY_READ_STORE');
