// Facts of one Event incarnation (stream = metadata.uid), kept in the same log as the Services'
// and never compacted away. Each carries the whole Event as the write left it (without
// metadata.resourceVersion, which is the write's log position): an Event is small, and a fact
// that holds its object lets a watch, the history and a replay read any write on its own.
import type { KubeEvent } from './kube-event.types';

/** When a live Event is due to expire (kube-apiserver's --event-ttl lease, renewed by every write); absent when it never expires here (a mirrored Event lives as long as its source keeps it). */
export interface EventLease {
  expiresAt?: string;
}

export interface KubeEventCreated {
  type: 'KubeEventCreated';
  data: { object: KubeEvent } & EventLease;
}

/** PUT or PATCH: the whole Event after the write. */
export interface KubeEventUpdated {
  type: 'KubeEventUpdated';
  data: { object: KubeEvent } & EventLease;
}

/** DELETE (or deletecollection): the Event as it was when deleted. */
export interface KubeEventDeleted {
  type: 'KubeEventDeleted';
  data: { object: KubeEvent };
}

/** The TTL ran out (no write for --event-ttl): the Event as it was when it expired. */
export interface KubeEventExpired {
  type: 'KubeEventExpired';
  data: { object: KubeEvent };
}

export type KubeEventFact = KubeEventCreated | KubeEventUpdated | KubeEventDeleted | KubeEventExpired;

export const KUBE_EVENT_FACT_TYPES: readonly KubeEventFact['type'][] = ['KubeEventCreated', 'KubeEventUpdated', 'KubeEventDeleted', 'KubeEventExpired'];

const FACT_TYPES: ReadonlySet<string> = new Set(KUBE_EVENT_FACT_TYPES);

/** Whether a logged event is an Event's fact (rather than a Service's): the log holds both kinds of stream. */
export function isKubeEventFact(event: { type: string }): event is KubeEventFact {
  return FACT_TYPES.has(event.type);
}

/** A fact that ends the Event's life. */
export function endsKubeEvent(fact: KubeEventFact): fact is KubeEventDeleted | KubeEventExpired {
  return fact.type === 'KubeEventDeleted' || fact.type === 'KubeEventExpired';
}
