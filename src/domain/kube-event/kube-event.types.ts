// core/v1 Event as it travels over the wire (kubernetes/api core/v1/types.go, v1.32): the one
// form svctrail stores, whichever API (core/v1 or events.k8s.io/v1) wrote it, as kube-apiserver
// keeps one store for both groups. Field order is Go struct order; omitempty fields may be absent.
import type { ObjectMeta } from '../service.types';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  /** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
  lastObservedTime?: string | null;
}

export interface KubeEvent {
  kind?: 'Event';
  apiVersion?: 'v1';
  metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  /** A struct with omitempty: Go always writes it (`{}` when empty). */
  source?: EventSource;
  /** metav1.Time: `null` when zero. */
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  /** metav1.MicroTime: `null` when zero. */
  eventTime?: string | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  /** No omitempty in core/v1: always written, `""` when empty. */
  reportingComponent: string;
  reportingInstance: string;
}

/** The API group a write came through: core/v1 is lenient, events.k8s.io/v1 strict (validation/events.go). */
export type EventApiVersion = 'v1' | 'events.k8s.io/v1';
