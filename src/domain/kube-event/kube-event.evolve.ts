// evolve(state, fact): the Event a fact leaves. Folding an Event's facts with each write's
// resourceVersion reproduces the JSON the API answered after that write.
import { objectMetaSchema } from '../codec/service-schema';
import { structKeyOrder } from '../codec/struct-key-order';
import type { KubeEventFact } from './kube-event.facts';
import type { KubeEvent } from './kube-event.types';

export interface KubeEventState {
  /** The Event as last served, or null before its creation and after it ended. */
  readonly object: KubeEvent | null;
  /** Facts in the stream so far (the next gets streamVersion + 1). */
  readonly streamVersion: number;
  /** When the live Event expires (RFC 3339 with milliseconds); absent when it does not. */
  readonly expiresAt?: string;
}

export const initialKubeEventState: KubeEventState = { object: null, streamVersion: 0 };

const inObjectMetaOrder = structKeyOrder(objectMetaSchema);

/** The stored object as served at a resourceVersion (the fact's object never holds one). */
export function servedKubeEvent(object: KubeEvent, resourceVersion: number): KubeEvent {
  return { ...object, metadata: inObjectMetaOrder({ ...object.metadata, resourceVersion: String(resourceVersion) }) };
}

export function evolveKubeEvent(state: KubeEventState, fact: KubeEventFact, resourceVersion: number): KubeEventState {
  const streamVersion = state.streamVersion + 1;
  switch (fact.type) {
    case 'KubeEventCreated':
    case 'KubeEventUpdated':
      return { object: servedKubeEvent(fact.data.object, resourceVersion), streamVersion, ...(fact.data.expiresAt ? { expiresAt: fact.data.expiresAt } : {}) };
    case 'KubeEventDeleted':
    case 'KubeEventExpired':
      return { object: null, streamVersion };
  }
}
