// evolve(state, event): how each event changes the object. Folding a stream's events with the
// resourceVersion of each write reproduces the JSON the API returned after that write.
import { objectMetaSchema, serviceSchema, serviceStatusSchema } from './codec/service-schema';
import { structKeyOrder } from './codec/struct-key-order';
import { MUTABLE_METADATA_KEYS, type ServiceEvent } from './service.events';
import { hasUnknownFields, unknownServiceFields, withUnknownServiceFields, type UnknownServiceFields } from './service-unknown-fields';
import type { Condition, Service } from './service.types';

export interface ServiceState {
  /** The object as last served, or null before creation and after deletion. */
  readonly object: Service | null;
  /** Number of events in the stream so far (the next event gets streamVersion + 1). */
  readonly streamVersion: number;
  readonly deleted: boolean;
}

const inServiceOrder = structKeyOrder(serviceSchema);
const inObjectMetaOrder = structKeyOrder(objectMetaSchema);
const inStatusOrder = structKeyOrder(serviceStatusSchema);

export const initialServiceState: ServiceState = { object: null, streamVersion: 0, deleted: false };

export function evolve(state: ServiceState, event: ServiceEvent, resourceVersion: number): ServiceState {
  return evolveAll(state, [event], resourceVersion);
}

/**
 * Folds the events of one write (all share its resourceVersion) onto a state. Nothing is
 * changed in place: each event makes shallow copies along the path it changes and shares the
 * rest with the state before and with the events' payloads, which are canonical already (encoded
 * by the decision that made them, or parsed from the text it stored). Only the levels an event
 * can add a key to (the object, its metadata and status) are put back in Go's key order. A state's
 * object is therefore never to be changed in place: copy it first.
 */
export function evolveAll(state: ServiceState, events: readonly ServiceEvent[], resourceVersion: number): ServiceState {
  if (events.length === 0) return state;
  let object = state.object;
  // A mirrored object's unknown fields (service-unknown-fields.ts) are placed again after the
  // events, which move known keys about: those of the object before, of a creation, or of the event
  // that changed them.
  let unknown: UnknownServiceFields | undefined = object ? unknownFieldsIfAny(object) : undefined;
  for (const event of events) {
    object = applyEvent(object, event);
    if (event.type === 'ServiceCreated') unknown = unknownFieldsIfAny(event.data.object);
    else if (event.type === 'ServiceUnknownFieldsChanged') unknown = event.data.fields;
  }
  const streamVersion = state.streamVersion + events.length;
  if (object === null) return { object: null, streamVersion, deleted: true };
  const metadata = inObjectMetaOrder({ ...object.metadata, resourceVersion: String(resourceVersion) });
  const folded = inServiceOrder(object.status === undefined ? { ...object, metadata } : { ...object, metadata, status: inStatusOrder(object.status) });
  return { object: unknown ? withUnknownServiceFields(folded, unknown) : folded, streamVersion, deleted: false };
}

function unknownFieldsIfAny(object: Service): UnknownServiceFields | undefined {
  const fields = unknownServiceFields(object);
  return hasUnknownFields(fields) ? fields : undefined;
}

/** One event's change as a new object (shallow copies of what it changes; the rest is shared). */
function applyEvent(obj: Service | null, event: ServiceEvent): Service | null {
  if (event.type === 'ServiceCreated') return event.data.object;
  if (obj === null) throw new Error(`${event.type} applied to a Service that does not exist`);
  switch (event.type) {
    case 'ServiceSpecChanged':
      return { ...obj, spec: event.data.spec };
    case 'ServiceMetadataChanged': {
      const metadata = { ...obj.metadata };
      for (const key of MUTABLE_METADATA_KEYS) delete metadata[key];
      return { ...obj, metadata: Object.assign(metadata, event.data.metadata) };
    }
    case 'LoadBalancerIngressChanged':
      return { ...obj, status: { ...obj.status, loadBalancer: event.data.ingress.length ? { ingress: event.data.ingress } : {} } };
    case 'ServiceConditionChanged': {
      const conditions: Condition[] = [...(obj.status.conditions ?? [])];
      const at = conditions.findIndex((c) => c.type === event.data.condition.type);
      if (at >= 0) conditions[at] = event.data.condition;
      else conditions.push(event.data.condition);
      return { ...obj, status: { ...obj.status, conditions } };
    }
    case 'ServiceConditionRemoved': {
      const { conditions: before, ...status } = obj.status;
      const conditions = (before ?? []).filter((c) => c.type !== event.data.conditionType);
      return { ...obj, status: conditions.length ? { ...status, conditions } : status };
    }
    case 'ServiceConditionsReplaced': {
      const { conditions: _before, ...status } = obj.status;
      return { ...obj, status: event.data.conditions.length ? { ...status, conditions: event.data.conditions } : status };
    }
    case 'ServiceManagedFieldsChanged': {
      const { managedFields: _before, ...metadata } = obj.metadata;
      return { ...obj, metadata: event.data.managedFields.length ? { ...metadata, managedFields: event.data.managedFields } : metadata };
    }
    case 'ServiceUnknownFieldsChanged':
      // Placed by evolveAll once every event of the write is applied.
      return obj;
    case 'ServiceDeletionRequested':
      return {
        ...obj,
        metadata: { ...obj.metadata, deletionTimestamp: event.data.deletionTimestamp, deletionGracePeriodSeconds: event.data.deletionGracePeriodSeconds },
      };
    case 'ServiceDeleted':
      return null;
    default: {
      const unreachable: never = event;
      throw new Error(`unknown event ${(unreachable as ServiceEvent).type}`);
    }
  }
}
