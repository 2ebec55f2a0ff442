// decide(command, state, context) -> events. Pure: everything that varies (time, uids, the
// cluster-wide allocation tables) arrives through the context. Mirrors the request pipeline of
// kube-apiserver's generic store for Services (object-semantics.md §0.2), so the first error
// kube-apiserver would report is the one thrown here.
import type { AllocationContext } from './allocation/allocation-context';
import { prepareServiceCreate, prepareServiceUpdate } from './allocation/service-allocation';
import { encodeService } from './codec/service-encoder';
import { BadRequestError, ConflictError, NotFoundError, RawServerError, AlreadyExistsError, InvalidError } from './errors/domain-errors';
import { diffService } from './service-diff';
import type { AppliedOwnership, CreateService, DeleteService, ReplaceService, ReplaceServiceStatus, ServiceCommand } from './service.commands';
import type { ServiceEvent } from './service.events';
import { evolveAll, type ServiceState } from './service.evolve';
import { copySystemMetadata, prepareServiceForUpdate, prepareServiceStatusForUpdate } from './service-update-strategy';
import type { ManagedFieldsEntry, Service } from './service.types';
import { ignoreManagedFieldsTimestamps, SERVICE_MANAGED_KIND, updateManagedFields } from './field-management';
import type { Subresource } from './field-management';
import { validateServiceCreate, validateServiceUpdate } from './validation/service.validation';
import { validateServiceStatusUpdate } from './validation/service-status.validation';
import { jsonCopy } from './json-copy';
import { sameJson } from './json-equality';

export interface DecisionContext {
  now: Date;
  newUid(): string;
  allocation: AllocationContext;
  /**
   * The writer's field manager (`fieldManager`, else the User-Agent's product). Without one the
   * write records no field ownership (the decider specs that predate managedFields).
   */
  manager?: string;
}

export interface Decision {
  events: ServiceEvent[];
  /** True when the write creates a new incarnation (HTTP 201). */
  created: boolean;
  /** What the API answers when the events are empty or end in a deletion (see `responseFor`). */
  unchanged?: Service;
  /**
   * An update's events folded onto the state (the invariant guard's fold), with the old
   * resourceVersion: the writer sets the new one instead of folding a second time.
   */
  folded?: Service;
}

const RESOURCE = 'services';
const KIND = 'Service';

/** metav1.Time: RFC 3339, second precision, UTC. */
export const formatTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Any command, to its own decision below (each write's handler calls its own directly). */
export function decide(command: ServiceCommand, state: ServiceState, ctx: DecisionContext): Decision {
  switch (command.kind) {
    case 'CreateService':
      return decideCreate(command, state, ctx);
    case 'ReplaceService':
      return decideReplace(command, state, ctx);
    case 'ReplaceServiceStatus':
      return decideReplaceStatus(command, state, ctx);
    case 'DeleteService':
      return decideDelete(command, state, ctx);
    default: {
      const unreachable: never = command;
      throw new Error(`unknown command ${(unreachable as ServiceCommand).kind}`);
    }
  }
}

function checkNamespace(object: Service, namespace: string): void {
  if (object.metadata.namespace && object.metadata.namespace !== namespace) {
    throw new BadRequestError('the namespace of the provided object does not match the namespace sent on the request');
  }
}

function checkName(object: Service, name: string): void {
  if ((object.metadata.name ?? '') !== name) {
    throw new BadRequestError(`the name of the object (${object.metadata.name ?? ''}) does not match the name on the URL (${name})`);
  }
}

/** POST: a new incarnation, its uid, creation time and allocations; 409 when the name is live. */
export function decideCreate(command: CreateService, state: ServiceState, ctx: DecisionContext): Decision {
  checkNamespace(command.object, command.namespace);
  const requestedResourceVersion = command.object.metadata.resourceVersion;
  let object = jsonCopy(command.object);
  const meta = object.metadata;
  meta.namespace = command.namespace;
  // rest.WipeObjectMetaSystemFields, then FillObjectMetaSystemFields.
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  delete meta.resourceVersion;
  meta.uid = ctx.newUid();
  meta.creationTimestamp = formatTime(ctx.now);

  // The field manager sees the decoded, defaulted object: the creator owns what decoding
  // defaulted, not what BeginCreate allocates next.
  const managedFields = ownership(ctx, undefined, command.object, '', command);
  delete meta.managedFields;
  if (managedFields) meta.managedFields = managedFields;
  // BeginCreate (allocation) runs before validation; nothing is reserved unless the write commits.
  object = prepareServiceCreate(object, ctx.allocation);
  object.status = { loadBalancer: {} };
  const errors = validateServiceCreate(object);
  if (errors.length) throw new InvalidError(KIND, meta.name ?? '', errors);
  const name = object.metadata.name ?? '';
  if (state.object) {
    if (command.nameGenerated) {
      throw new AlreadyExistsError(RESOURCE, name, `${RESOURCE} "${name}" already exists, the server was not able to generate a unique name for the object`, 1);
    }
    throw new AlreadyExistsError(RESOURCE, name);
  }
  if (requestedResourceVersion) throw new RawServerError('resourceVersion should not be set on objects to be created');
  return { events: [{ type: 'ServiceCreated', data: { object: encodeService(object) } }], created: true };
}

/** A uid in the body is a storage precondition (§4.3), reported in etcd3's StorageError form. */
function checkPreconditions(object: Service, current: Service | null, namespace: string, name: string): void {
  const sent = object.metadata.uid;
  const stored = current?.metadata.uid ?? '';
  if (sent && sent !== stored) {
    throw new ConflictError(
      RESOURCE,
      name,
      `StorageError: invalid object, Code: 4, Key: /registry/services/specs/${namespace}/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${sent}, UID in object meta: ${stored}`,
    );
  }
}

function checkResourceVersion(object: Service, current: Service, name: string): void {
  const rv = object.metadata.resourceVersion;
  if (!rv || rv === '0' || rv === current.metadata.resourceVersion) return;
  if (!/^\d+$/.test(rv)) throw new RawServerError(`strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  throw ConflictError.staleResourceVersion(RESOURCE, name);
}

/** PUT: the object replaced (a missing one is created, AllowCreateOnUpdate). */
export function decideReplace(command: ReplaceService, state: ServiceState, ctx: DecisionContext): Decision {
  checkNamespace(command.object, command.namespace);
  checkName(command.object, command.name);
  checkPreconditions(command.object, state.object, command.namespace, command.name);
  if (!state.object) {
    const object = jsonCopy(command.object);
    delete object.metadata.resourceVersion;
    return decideCreate({ kind: 'CreateService', namespace: command.namespace, object }, state, ctx);
  }
  const old = state.object;
  checkResourceVersion(command.object, old, command.name);
  const requested = withNamespace(command.object, command.namespace);
  const managedFields = ownership(ctx, old, requested, '', command);
  let next = prepareServiceUpdate(old, requested, ctx.allocation);
  next = withManagedFields(copySystemMetadata(prepareServiceForUpdate(next, old), old), managedFields);
  const errors = validateServiceUpdate(next, old);
  if (errors.length) throw new InvalidError(KIND, command.name, errors);
  return updateDecision(old, next, state);
}

/** PUT /status: only metadata and status are taken from the body; a missing object is 404. */
export function decideReplaceStatus(command: ReplaceServiceStatus, state: ServiceState, ctx: DecisionContext): Decision {
  checkNamespace(command.object, command.namespace);
  checkName(command.object, command.name);
  checkPreconditions(command.object, state.object, command.namespace, command.name);
  // Recommended over the generic create-on-update quirk: /status never creates (§3.5).
  if (!state.object) throw new NotFoundError(RESOURCE, command.name);
  const old = state.object;
  checkResourceVersion(command.object, old, command.name);
  const requested = withNamespace(command.object, command.namespace);
  const managedFields = ownership(ctx, old, requested, 'status', command);
  const next = withManagedFields(copySystemMetadata(prepareServiceStatusForUpdate(requested, old), old), managedFields);
  const errors = validateServiceStatusUpdate(next, old);
  if (errors.length) throw new InvalidError(KIND, command.name, errors);
  return updateDecision(old, next, state);
}

/** The managedFields this write leaves (FieldManager.Update), or undefined when none are kept. */
function ownership(ctx: DecisionContext, live: Service | undefined, requested: Service, subresource: Subresource, command: AppliedOwnership): ManagedFieldsEntry[] | undefined {
  if (command.appliedManagedFields !== undefined) return command.appliedManagedFields ?? undefined;
  if (ctx.manager === undefined) return live?.metadata.managedFields;
  return updateManagedFields({ live, updated: requested, manager: ctx.manager, subresource, now: formatTime(ctx.now) }, SERVICE_MANAGED_KIND);
}

function withManagedFields(object: Service, managedFields: ManagedFieldsEntry[] | undefined): Service {
  if (managedFields?.length) object.metadata.managedFields = managedFields;
  else delete object.metadata.managedFields;
  return object;
}

function withNamespace(object: Service, namespace: string): Service {
  const out = jsonCopy(object);
  out.metadata.namespace = namespace;
  return out;
}

/** Shared tail of every update: no-op detection, events, and deletion by emptied finalizers. */
function updateDecision(old: Service, next: Service, state: ServiceState): Decision {
  const encoded = encodeService(next);
  encoded.metadata.resourceVersion = old.metadata.resourceVersion;
  // A write that changes nothing but managedFields times keeps the stored ones: still a no-op.
  const canonical = ignoreManagedFieldsTimestamps(old, encoded, SERVICE_MANAGED_KIND);
  const events = diffService(old, canonical);
  if (events.length === 0) return { events: [], created: false, unchanged: old };
  // §7.4: an update that leaves a deleting object without finalizers completes the deletion.
  const deleting = Boolean(canonical.metadata.deletionTimestamp);
  if (deleting && !canonical.metadata.finalizers?.length) events.push({ type: 'ServiceDeleted', data: {} });
  // Guard the invariant that makes replay exact.
  const folded = evolveAll(
    state,
    events.filter((e) => e.type !== 'ServiceDeleted'),
    0,
  ).object;
  if (folded) folded.metadata.resourceVersion = old.metadata.resourceVersion;
  if (!sameJson(folded, canonical)) {
    throw new Error('internal: events do not reproduce the updated object');
  }
  return { events, created: false, ...(folded && !deleting ? { folded } : {}) };
}

/** DELETE: preconditions, then gone at once, or pending (deletionTimestamp) while finalizers remain. */
export function decideDelete(command: DeleteService, state: ServiceState, ctx: DecisionContext): Decision {
  const current = state.object;
  if (!current) throw new NotFoundError(RESOURCE, command.name);
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
    // Graceful deletion is pending until the last finalizer goes (§7.3); repeating it is a no-op.
    if (current.metadata.deletionTimestamp) return { events: [], created: false, unchanged: current };
    return {
      events: [{ type: 'ServiceDeletionRequested', data: { deletionTimestamp: formatTime(ctx.now), deletionGracePeriodSeconds: 0 } }],
      created: false,
    };
  }
  return { events: [{ type: 'ServiceDeleted', data: {} }], created: false, unchanged: current };
}
