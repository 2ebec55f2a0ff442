// events.k8s.io/v1 Event as it travels over the wire (kubernetes/api events/v1/types.go, v1.32):
// the view kube-apiserver converts the one stored Event to for the events.k8s.io group. Field
// order is Go struct order; omitempty fields may be absent.
import type { ObjectMeta } from '../service.types';
import type { EventSource, ObjectReference } from './kube-event.types';

export const EVENTS_GROUP = 'events.k8s.io';
export const EVENTS_V1 = 'events.k8s.io/v1';

export interface EventsV1EventSeries {
  /** No omitempty: always written. */
  count: number;
  /** metav1.MicroTime, no omitempty: `null` when zero. */
  lastObservedTime: string | null;
}

export interface EventsV1Event {
  kind?: 'Event';
  apiVersion?: typeof EVENTS_V1;
  metadata: ObjectMeta;
  /** metav1.MicroTime without omitempty: `null` when zero. */
  eventTime: string | null;
  series?: EventsV1EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  /** A struct with omitempty: Go always writes it. */
  regarding: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource: EventSource;
  deprecatedFirstTimestamp: string | null;
  deprecatedLastTimestamp: string | null;
  deprecatedCount?: number;
}
