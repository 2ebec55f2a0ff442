// What controllers said, kept forever: the writes of core/v1 Events as the history reads them
// (one row of kube_event_occurrences per write, the Event itself the log row at the same
// position), whatever the engine.
import type { EventRow } from './event-row';

export interface OccurrenceRange {
  /** The Event's own namespace. */
  namespace?: string;
  /** The object the Events are about: every Event whose involvedObject names it (all its incarnations). */
  involved?: { kind: string; namespace: string; name: string };
  /** involvedObject.uid: one incarnation. */
  involvedUid?: string;
  type?: string;
  reason?: string;
  reportingController?: string;
  /** Writes with resourceVersion in [fromRv, toRv]. */
  fromRv: number;
  toRv: number;
}

/** The writes of Events, for the Events history (either engine). */
export interface KubeEventHistory {
  /** The log rows of up to `limit` matching Event writes, oldest first (an Event write is one row). */
  occurrences(range: OccurrenceRange, limit: number): Promise<EventRow[]>;
}

/** DI token of the engine's KubeEventHistory. */
export const KUBE_EVENT_HISTORY = Symbol('KUBE_EVENT_HISTORY');
