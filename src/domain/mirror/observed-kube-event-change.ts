// decideObservedKubeEvent(state, observed): the one fact that takes the recorded incarnation of a
// core/v1 Event to the state the source was observed in (mirror mode), as decideObserved does for
// Services. Nothing is validated, defaulted or leased: the source accepted the Event (with its own
// uid, times, count and series), and it lives here as long as the source keeps it. An Event fact
// holds the whole Event, so the difference is only which fact: created, updated or ended.
//
// A deletion at the source is recorded as KubeEventDeleted, never KubeEventExpired: kube-apiserver's
// TTL expiry and a DELETE are the same etcd delete and the same DELETED watch event, and the audit
// log cannot tell them apart afterwards (an Event DELETE answers a Status without the
// resourceVersion the join needs). A fact is kept forever, so it says only what was observed.
import { encodeKubeEvent } from '../codec/kube-event-encoder';
import { sameJson } from '../json-equality';
import type { KubeEventState } from '../kube-event/kube-event.evolve';
import type { KubeEventFact } from '../kube-event/kube-event.facts';
import type { KubeEvent } from '../kube-event/kube-event.types';
import { changedManager, ObservedFoldError } from './observed-change';

export interface ObservedKubeEventDecision {
  /** Absent when the store already holds this state (a resumed watch, a relist of an unchanged Event). */
  fact?: KubeEventFact;
  /** The stream the fact goes to: the observed uid for a creation, the recorded one otherwise. */
  streamId: string;
  created: boolean;
  verb: 'create' | 'update' | 'delete';
  /** The manager whose managedFields entry this write changed: a hint of who wrote, until an audit event says. */
  fieldManager: string;
  /**
   * The recorded incarnation is not the observed one (deleted and re-created between two looks):
   * the fact ends it, and the observed Event must be decided again on the empty state.
   */
  replaced: boolean;
}

/**
 * The source's Event as svctrail stores it: canonical form with the fields svctrail does not know
 * kept where the source had them, without the source's resourceVersion (svctrail's own is the
 * write's log position) and selfLink.
 */
export function observedKubeEvent(source: KubeEvent): KubeEvent {
  const object = encodeKubeEvent(source, { keepUnknownFields: true });
  delete object.metadata.resourceVersion;
  delete object.metadata.selfLink;
  return object;
}

/** `observed` is the source's Event in stored form (observedKubeEvent). */
export function decideObservedKubeEvent(state: KubeEventState, observed: KubeEvent): ObservedKubeEventDecision {
  const current = state.object;
  const uid = uidOf(observed);
  if (current && uidOf(current) !== uid) {
    return { fact: { type: 'KubeEventDeleted', data: { object: observedKubeEvent(current) } }, streamId: uidOf(current), created: false, verb: 'delete', fieldManager: '', replaced: true };
  }
  if (!current) {
    return {
      fact: { type: 'KubeEventCreated', data: { object: observed } },
      streamId: uid,
      created: true,
      verb: 'create',
      fieldManager: changedManager(undefined, observed.metadata.managedFields)?.manager ?? '',
      replaced: false,
    };
  }
  if (sameJson(observedKubeEvent(current), observed)) return unchanged(uid, 'update');
  return {
    fact: { type: 'KubeEventUpdated', data: { object: observed } },
    streamId: uid,
    created: false,
    verb: 'update',
    fieldManager: changedManager(current.metadata.managedFields, observed.metadata.managedFields)?.manager ?? '',
    replaced: false,
  };
}

/**
 * The Event is gone at the source: a DELETED watch event (`lastKnown`, the Event as the source
 * last had it, kept in the fact) or missing from a relist (null: the recorded Event is kept).
 * Nothing to do when the recorded incarnation is not the deleted one, or nothing is recorded.
 */
export function decideObservedKubeEventDeletion(state: KubeEventState, lastKnown: KubeEvent | null): ObservedKubeEventDecision {
  const current = state.object;
  if (!current || (lastKnown && uidOf(lastKnown) !== uidOf(current))) return unchanged(current ? uidOf(current) : '', 'delete');
  return {
    fact: { type: 'KubeEventDeleted', data: { object: lastKnown ?? observedKubeEvent(current) } },
    streamId: uidOf(current),
    created: false,
    verb: 'delete',
    fieldManager: lastKnown ? (changedManager(current.metadata.managedFields, lastKnown.metadata.managedFields)?.manager ?? '') : '',
    replaced: false,
  };
}

function unchanged(streamId: string, verb: ObservedKubeEventDecision['verb']): ObservedKubeEventDecision {
  return { streamId, created: false, verb, fieldManager: '', replaced: false };
}

function uidOf(event: KubeEvent): string {
  const uid = event.metadata.uid;
  if (!uid) throw new ObservedFoldError(`an observed Event ${event.metadata.namespace}/${event.metadata.name} has no uid`);
  return uid;
}
