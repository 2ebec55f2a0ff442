// decideObserved(state, observed): the events that take the recorded incarnation of a Service to
// the state another API server was observed in (mirror mode). Nothing is validated or defaulted:
// the source accepted the object (feature gates differ between clusters, see
// shared/k8s/mirror.md §3); the events are the difference between consecutive observed states,
// computed by the same diff a direct write uses, so every projection and history answer reads
// mirrored writes exactly like direct ones. Fields svctrail's schema does not know (a newer
// Kubernetes version's) are kept where the source had them (service-unknown-fields.ts).
import { diffService } from '../service-diff';
import type { ServiceEvent } from '../service.events';
import { evolveAll, type ServiceState } from '../service.evolve';
import type { ManagedFieldsEntry, Service } from '../service.types';
import { encodeService } from '../codec/service-encoder';
import { jsonCopy } from '../json-copy';
import { sameJson } from '../json-equality';
import { changedUnknownLevels, unknownServiceFields } from '../service-unknown-fields';

/** How a state was found: a watch event, the first LIST, or a LIST after the source expired our place. */
export type ObservedVia = 'watch' | 'list' | 'relist';

export interface ObservedDecision {
  /** Empty when the store already holds this state (a resumed watch, a relist of an unchanged object). */
  events: ServiceEvent[];
  /** The stream the events go to: the observed uid for a creation, the recorded one otherwise. */
  streamId: string;
  created: boolean;
  verb: 'create' | 'update' | 'delete';
  /** 'status' when only the status subresource's manager changed its fields. */
  subresource: '' | 'status';
  /** The manager whose managedFields entry this write changed: a hint of who wrote, until an audit event says. */
  fieldManager: string;
  /**
   * The recorded incarnation is not the observed one (deleted and re-created between two looks):
   * these events delete it, and the observed object must be decided again on the empty state.
   */
  replaced: boolean;
  /** The object the events fold to (with the recorded resourceVersion), when it lives on. */
  folded?: Service;
}

const KEEP_UNKNOWN = { keepUnknownFields: true };

/** Internal error: the diff did not reproduce the observed object (replay would not be exact). */
export class ObservedFoldError extends Error {}

/**
 * The source's object as svctrail stores it: canonical form with the fields svctrail does not
 * know kept in place, without the source's resourceVersion (it means nothing here; svctrail's own
 * is the write's log position).
 */
export function observedObject(source: Service): Service {
  const object = encodeService(source, KEEP_UNKNOWN);
  delete object.metadata.resourceVersion;
  delete object.metadata.selfLink;
  return object;
}

/**
 * `observed` is the source's object in canonical form (observedObject), or null when it is gone
 * at the source (a DELETED event, or missing from a relist). `lastKnown`, for a deletion, is the
 * final object the source sent with its DELETED event, if any: what changed in it is recorded
 * before the deletion, in the same write.
 */
export function decideObserved(state: ServiceState, observed: Service | null): ObservedDecision {
  const current = state.object;
  if (observed === null) return decideObservedDeletion(state, null);
  if (current && uidOf(current) !== uidOf(observed)) {
    return { events: [{ type: 'ServiceDeleted', data: {} }], streamId: uidOf(current), created: false, verb: 'delete', subresource: '', fieldManager: '', replaced: true };
  }
  if (!current) {
    const changed = changedManager(undefined, observed.metadata.managedFields);
    return {
      events: [{ type: 'ServiceCreated', data: { object: jsonCopy(observed) } }],
      streamId: uidOf(observed),
      created: true,
      verb: 'create',
      subresource: '',
      fieldManager: changed?.manager ?? '',
      replaced: false,
    };
  }
  return decideUpdate(state, current, observed);
}

/** The final state of a deleted object, then its deletion, as one write. */
export function decideObservedDeletion(state: ServiceState, lastKnown: Service | null): ObservedDecision {
  const current = state.object;
  if (!current || (lastKnown && uidOf(lastKnown) !== uidOf(current))) return noChange(current ? uidOf(current) : '', 'delete');
  const changes = lastKnown ? decideUpdate(state, current, lastKnown).events : [];
  return {
    events: [...changes, { type: 'ServiceDeleted', data: {} }],
    streamId: uidOf(current),
    created: false,
    verb: 'delete',
    subresource: '',
    fieldManager: lastKnown ? (changedManager(current.metadata.managedFields, lastKnown.metadata.managedFields)?.manager ?? '') : '',
    replaced: false,
  };
}

function decideUpdate(state: ServiceState, current: Service, observed: Service): ObservedDecision {
  // Canonical key order with the recorded resourceVersion in its place, as the fold encodes it.
  const next = encodeService({ ...observed, metadata: { ...observed.metadata, resourceVersion: current.metadata.resourceVersion } }, KEEP_UNKNOWN);
  const events = diffService(current, next);
  const deletion = deletionEvent(current, next);
  if (deletion) events.push(deletion);
  const streamId = uidOf(current);
  if (events.length === 0) return noChange(streamId, 'update');
  // The fold must give back the observed object exactly, or replay would serve another one.
  const folded = evolveAll(state, events, 0).object!;
  folded.metadata.resourceVersion = current.metadata.resourceVersion;
  if (!sameJson(folded, next)) {
    throw new ObservedFoldError(`the observed change of ${next.metadata.namespace}/${next.metadata.name} is not one the events can express`);
  }
  const changed = changedManager(current.metadata.managedFields, observed.metadata.managedFields);
  return {
    events,
    streamId,
    created: false,
    verb: 'update',
    subresource: changed ? (changed.subresource === 'status' ? 'status' : '') : onlyStatus(events, current, next) ? 'status' : '',
    fieldManager: changed?.manager ?? '',
    replaced: false,
    folded,
  };
}

/** A graceful deletion began at the source (finalizers hold the object). */
function deletionEvent(current: Service, next: Service): ServiceEvent | undefined {
  const at = next.metadata.deletionTimestamp;
  if (!at) {
    if (current.metadata.deletionTimestamp) throw new ObservedFoldError(`${next.metadata.namespace}/${next.metadata.name}: a deletionTimestamp cannot be taken back`);
    return undefined;
  }
  if (at === current.metadata.deletionTimestamp && next.metadata.deletionGracePeriodSeconds === current.metadata.deletionGracePeriodSeconds) return undefined;
  return { type: 'ServiceDeletionRequested', data: { deletionTimestamp: at, deletionGracePeriodSeconds: next.metadata.deletionGracePeriodSeconds ?? 0 } };
}

/**
 * A change of status alone came through the status subresource: an update of the main resource
 * keeps the stored status (when managedFields do not say, e.g. a second write by the same
 * manager within the second its entry's time already holds).
 */
function onlyStatus(events: readonly ServiceEvent[], current: Service, next: Service): boolean {
  return events.every((e) => STATUS_EVENTS.has(e.type) || (e.type === 'ServiceUnknownFieldsChanged' && onlyStatusUnknownFields(current, next)));
}

function onlyStatusUnknownFields(current: Service, next: Service): boolean {
  return changedUnknownLevels(unknownServiceFields(current), unknownServiceFields(next)).every((level) => level === 'status' || level === 'loadBalancer');
}

const STATUS_EVENTS = new Set<ServiceEvent['type']>(['LoadBalancerIngressChanged', 'ServiceConditionChanged', 'ServiceConditionRemoved', 'ServiceConditionsReplaced', 'ServiceManagedFieldsChanged']);

function noChange(streamId: string, verb: ObservedDecision['verb']): ObservedDecision {
  return { events: [], streamId, created: false, verb, subresource: '', fieldManager: '', replaced: false };
}

function uidOf(object: Service): string {
  const uid = object.metadata.uid;
  if (!uid) throw new ObservedFoldError(`an observed Service ${object.metadata.namespace}/${object.metadata.name} has no uid`);
  return uid;
}

/**
 * The managedFields entry the write added or changed (its fields or its time). Several change
 * when a write moves ownership: the newest time wins, the first in the list on a tie.
 */
export function changedManager(before: readonly ManagedFieldsEntry[] | undefined, after: readonly ManagedFieldsEntry[] | undefined): ManagedFieldsEntry | undefined {
  const key = (e: ManagedFieldsEntry) => `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;
  const previous = new Map((before ?? []).map((e) => [key(e), e]));
  let best: ManagedFieldsEntry | undefined;
  for (const entry of after ?? []) {
    const old = previous.get(key(entry));
    if (old && old.time === entry.time && sameJson(old.fieldsV1 ?? null, entry.fieldsV1 ?? null)) continue;
    if (!best || (entry.time ?? '') > (best.time ?? '')) best = entry;
  }
  return best;
}
