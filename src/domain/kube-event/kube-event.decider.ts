// decide(command, state, context) -> facts, for one Event. Pure: time, uids, the TTL and field
// ownership arrive through the context. Mirrors kube-apiserver's generic registry store for
// Events (registry/core/event: no status, AllowCreateOnUpdate and AllowUnconditionalUpdate, a
// TTL lease renewed by every write), so the first error kube-apiserver would report is the one
// thrown here.
import { encodeKubeEvent } from '../codec/kube-event-encoder';
import { AlreadyExistsError, BadRequestError, ConflictError, type GroupResource, InvalidError, NotFoundError, RawServerError } from '../errors/domain-errors';
import { CORE_EVENT_MANAGED_KIND, ignoreManagedFieldsTimestamps } from '../field-management';
import { jsonCopy } from '../json-copy';
import { sameJson } from '../json-equality';
import { formatTime } from '../service.decider';
import { copySystemMetadata } from '../service-update-strategy';
import type { ManagedFieldsEntry } from '../service.types';
import type { CreateKubeEvent, DeleteKubeEvent, ExpireKubeEvent, ReplaceKubeEvent } from './kube-event.commands';
import type { KubeEventState } from './kube-event.evolve';
import type { KubeEventFact } from './kube-event.facts';
import type { EventApiVersion, KubeEvent } from './kube-event.types';
import { validateKubeEventCreate, validateKubeEventUpdate } from './kube-event.validation';

export interface KubeEventDecisionContext {
  now: Date;
  newUid(): string;
  /** --event-ttl: a written Event expires this long after its last write; undefined: never. */
  ttlSeconds?: number;
  /**
   * The managedFields a write leaves (FieldManager.Update of the API version written through, or
   * an apply's); absent: the Event keeps none.
   */
  managedFields?(live: KubeEvent | undefined, updated: KubeEvent, api: EventApiVersion): ManagedFieldsEntry[] | undefined;
}

export interface KubeEventDecision {
  facts: KubeEventFact[];
  /** The write created the Event (HTTP 201). */
  created: boolean;
  /** The Event ended (DELETE answers a Status instead of the object). */
  ended?: boolean;
  /** What the API answers when nothing is written (a no-op update, a repeated graceful delete). */
  unchanged?: KubeEvent;
}

export const EVENTS_RESOURCE = 'events';
/**
 * The kind rest.BeforeCreate/BeforeUpdate/BeforeDelete name: the first of the internal type's
 * kinds in the legacy scheme, core's (its install runs before events.k8s.io's), whichever API
 * was called — an events.k8s.io recorder sees `Event "x" is invalid: action: Required value`.
 */
const KIND = 'Event';

/**
 * The resource the generic store names (qualifiedResourceFromContext: the request's group and
 * resource): `events "x" not found` on core/v1, `events.events.k8s.io "x" not found` on events.k8s.io.
 */
export function eventsResource(api: EventApiVersion): GroupResource {
  return { group: api === 'events.k8s.io/v1' ? 'events.k8s.io' : '', resource: EVENTS_RESOURCE };
}

function checkNamespace(object: KubeEvent, namespace: string): void {
  if (object.metadata.namespace && object.metadata.namespace !== namespace) {
    throw new BadRequestError('the namespace of the provided object does not match the namespace sent on the request');
  }
}

function checkName(object: KubeEvent, name: string): void {
  if ((object.metadata.name ?? '') !== name) {
    throw new BadRequestError(`the name of the object (${object.metadata.name ?? ''}) does not match the name on the URL (${name})`);
  }
}

function checkUidPrecondition(object: KubeEvent, current: KubeEvent | null, namespace: string, name: string, api: EventApiVersion): void {
  const sent = object.metadata.uid;
  const stored = current?.metadata.uid ?? '';
  if (sent && sent !== stored) {
    throw new ConflictError(
      eventsResource(api),
      name,
      `StorageError: invalid object, Code: 4, Key: /registry/events/${namespace}/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${sent}, UID in object meta: ${stored}`,
    );
  }
}

function checkResourceVersion(object: KubeEvent, current: KubeEvent, name: string, api: EventApiVersion): void {
  const rv = object.metadata.resourceVersion;
  if (!rv || rv === '0' || rv === current.metadata.resourceVersion) return;
  if (!/^\d+$/.test(rv)) throw new RawServerError(`strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  throw ConflictError.staleResourceVersion(eventsResource(api), name);
}

/** `events "x" not found`, or `events.events.k8s.io "x" not found`. */
export function eventNotFound(name: string, api: EventApiVersion): NotFoundError {
  const { group, resource } = eventsResource(api);
  return new NotFoundError(resource, name, group || undefined);
}

/** Every write renews the lease: the Event expires --event-ttl after it (etcd3 store, a lease per write). */
function lease(ctx: KubeEventDecisionContext): { expiresAt?: string } {
  return ctx.ttlSeconds === undefined ? {} : { expiresAt: new Date(ctx.now.getTime() + ctx.ttlSeconds * 1000).toISOString() };
}

/** The stored form: canonical, without resourceVersion (the write's position stands for it). */
function stored(object: KubeEvent): KubeEvent {
  const out = encodeKubeEvent(object);
  delete out.metadata.resourceVersion;
  return out;
}

function withManagedFields(object: KubeEvent, entries: ManagedFieldsEntry[] | undefined): KubeEvent {
  if (entries?.length) object.metadata.managedFields = entries;
  else delete object.metadata.managedFields;
  return object;
}

/** POST (store.Create + rest.BeforeCreate): uid and creation time, validation, then the name must be free. */
export function decideKubeEventCreate(command: CreateKubeEvent, state: KubeEventState, ctx: KubeEventDecisionContext): KubeEventDecision {
  checkNamespace(command.object, command.namespace);
  const requestedResourceVersion = command.object.metadata.resourceVersion;
  const object = jsonCopy(command.object);
  const meta = object.metadata;
  meta.namespace = command.namespace;
  // rest.WipeObjectMetaSystemFields, then FillObjectMetaSystemFields.
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  delete meta.resourceVersion;
  meta.uid = ctx.newUid();
  meta.creationTimestamp = formatTime(ctx.now);
  withManagedFields(object, ctx.managedFields?.(undefined, command.object, command.api));
  const errors = validateKubeEventCreate(object, command.api);
  if (errors.length) throw new InvalidError(KIND, meta.name ?? '', errors);
  const name = meta.name ?? '';
  if (state.object) {
    if (command.nameGenerated) throw AlreadyExistsError.generateNameConflict(eventsResource(command.api), name);
    throw new AlreadyExistsError(eventsResource(command.api), name);
  }
  if (requestedResourceVersion) throw new RawServerError('resourceVersion should not be set on objects to be created');
  return { facts: [{ type: 'KubeEventCreated', data: { object: stored(object), ...lease(ctx) } }], created: true };
}

/** PUT (store.Update + rest.BeforeUpdate), or a PATCH's patched object: a missing Event is created by PUT, 404 for PATCH. */
export function decideKubeEventReplace(command: ReplaceKubeEvent, state: KubeEventState, ctx: KubeEventDecisionContext): KubeEventDecision {
  if (command.patch && !state.object) throw eventNotFound(command.name, command.api);
  checkNamespace(command.object, command.namespace);
  checkName(command.object, command.name);
  checkUidPrecondition(command.object, state.object, command.namespace, command.name, command.api);
  if (!state.object) {
    const object = jsonCopy(command.object);
    delete object.metadata.resourceVersion;
    return decideKubeEventCreate({ kind: 'CreateKubeEvent', namespace: command.namespace, object, api: command.api }, state, ctx);
  }
  const old = state.object;
  checkResourceVersion(command.object, old, command.name, command.api);
  const requested = jsonCopy(command.object);
  requested.metadata.namespace = command.namespace;
  const next = withManagedFields(copySystemMetadata(requested, old), ctx.managedFields ? ctx.managedFields(old, requested, command.api) : undefined);
  const errors = validateKubeEventUpdate(next, old, command.api);
  if (errors.length) throw new InvalidError(KIND, command.name, errors);
  const before = stored(old);
  // A write that only moved managedFields times keeps the stored ones: still a no-op (equality.go).
  const object = ignoreManagedFieldsTimestamps(before, stored(next), CORE_EVENT_MANAGED_KIND);
  // etcd3's GuaranteedUpdate writes nothing (and renews no lease) when the bytes are the same.
  if (sameJson(object, before)) return { facts: [], created: false, unchanged: old };
  // An update that leaves a deleting Event without finalizers deletes it (store.Update).
  if (object.metadata.deletionTimestamp && !object.metadata.finalizers?.length) {
    return { facts: [{ type: 'KubeEventDeleted', data: { object } }], created: false, ended: true };
  }
  return { facts: [{ type: 'KubeEventUpdated', data: { object, ...lease(ctx) } }], created: false };
}

/** DELETE: preconditions, then gone at once, or pending (deletionTimestamp) while finalizers remain. */
export function decideKubeEventDelete(command: DeleteKubeEvent, state: KubeEventState, ctx: KubeEventDecisionContext & { api?: EventApiVersion }): KubeEventDecision {
  const current = state.object;
  if (!current) throw eventNotFound(command.name, ctx.api ?? 'v1');
  const pre = command.preconditions;
  if (pre?.uid && pre.uid !== current.metadata.uid) {
    throw new ConflictError(
      KIND,
      command.name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.metadata.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
    throw new ConflictError(
      KIND,
      command.name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`,
    );
  }
  if (current.metadata.finalizers?.length) {
    if (current.metadata.deletionTimestamp) return { facts: [], created: false, unchanged: current };
    const object = stored(current);
    object.metadata = { ...object.metadata, deletionTimestamp: formatTime(ctx.now), deletionGracePeriodSeconds: 0 };
    return { facts: [{ type: 'KubeEventUpdated', data: { object: stored(object), ...lease(ctx) } }], created: false };
  }
  return { facts: [{ type: 'KubeEventDeleted', data: { object: stored(current) } }], created: false, ended: true, unchanged: current };
}

/** The lease of the write at the command's resourceVersion ran out; a later write renewed it (nothing to do). */
export function decideKubeEventExpiry(command: ExpireKubeEvent, state: KubeEventState): KubeEventDecision {
  const current = state.object;
  if (!current || current.metadata.resourceVersion !== command.resourceVersion) return { facts: [], created: false };
  return { facts: [{ type: 'KubeEventExpired', data: { object: stored(current) } }], created: false, ended: true, unchanged: current };
}
