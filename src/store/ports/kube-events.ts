// The event log as core/v1 Events, whatever the engine.
import type { RecordedEvent } from './recorded-event';

export interface KubeEventQuery {
  namespace?: string;
  /** involvedObject.name / uid when a field selector pins them (index lookups). */
  name?: string;
  uid?: string;
  afterPosition: number;
  /** Snapshot: nothing after this position. */
  untilPosition: number;
  limit: number;
}

/** The event log as core/v1 Events (either engine). */
export interface KubeEvents {
  /** The newest position in the log (the current global resourceVersion). */
  head(): Promise<number>;
  page(query: KubeEventQuery): Promise<RecordedEvent[]>;
  at(position: number): Promise<RecordedEvent | undefined>;
  /** Events of whole writes after a resourceVersion (a page never splits a write). */
  writesAfter(resourceVersion: number, limit: number): Promise<{ events: RecordedEvent[]; complete: boolean }>;
}

/** DI token of the engine's KubeEvents. */
export const KUBE_EVENTS = Symbol('KUBE_EVENTS');
