// evolve(state, event): how each event changes the object. Folding a stream's events with the
// resourceVersion of each write reproduces the JSON the API returned after that write.
import { encodeService } from './codec/service-encoder';
import { MUTABLE_METADATA_KEYS, ServiceEvent } from './service.events';
import type { Condition, Service } from './service.types';

export interface ServiceState {
  /** The object as last served, or null before creation and after deletion. */
  readonly object: Service | null;
  /** Number of events in the stream so far (the next event gets streamVersion + 1). */
  readonly streamVersion: number;
  readonly deleted: boolean;
}

export const initialServiceState: ServiceState = { object: null, streamVersion: 0, deleted: false };

export function evolve(state: ServiceState, event: ServiceEvent, resourceVersion: number): ServiceState {
  return evolveAll(state, [event], resourceVersion);
}

/**
 * Folds the events of one write (all share its resourceVersion) onto a state. States are never
 * changed: the object is copied once per write, the events applied to the copy, and the result
 * encoded once (canonical key order), not once per event.
 */
export function evolveAll(state: ServiceState, events: readonly ServiceEvent[], resourceVersion: number): ServiceState {
  if (events.length === 0) return state;
  let object = state.object === null ? null : structuredClone(state.object);
  for (const event of events) object = applyEvent(object, event);
  const streamVersion = state.streamVersion + events.length;
  if (object === null) return { object: null, streamVersion, deleted: true };
  object.metadata.resourceVersion = String(resourceVersion);
  return { object: encodeService(object), streamVersion, deleted: false };
}

/** Applies one event to `obj` in place (a copy the caller owns); returns the new object. */
function applyEvent(obj: Service | null, event: ServiceEvent): Service | null {
  if (event.type === 'ServiceCreated') return structuredClone(event.data.object);
  if (obj === null) throw new Error(`${event.type} applied to a Service that does not exist`);
  switch (event.type) {
    case 'ServiceSpecChanged':
      obj.spec = structuredClone(event.data.spec);
      return obj;
    case 'ServiceMetadataChanged':
      for (const key of MUTABLE_METADATA_KEYS) delete obj.metadata[key];
      Object.assign(obj.metadata, structuredClone(event.data.metadata));
      return obj;
    case 'LoadBalancerIngressChanged':
      obj.status.loadBalancer = event.data.ingress.length ? { ingress: structuredClone(event.data.ingress) } : {};
      return obj;
    case 'ServiceConditionChanged': {
      const conditions: Condition[] = obj.status.conditions ?? [];
      const at = conditions.findIndex((c) => c.type === event.data.condition.type);
      if (at >= 0) conditions[at] = structuredClone(event.data.condition);
      else conditions.push(structuredClone(event.data.condition));
      obj.status.conditions = conditions;
      return obj;
    }
    case 'ServiceConditionRemoved':
      obj.status.conditions = (obj.status.conditions ?? []).filter((c) => c.type !== event.data.conditionType);
      if (obj.status.conditions.length === 0) delete obj.status.conditions;
      return obj;
    case 'ServiceConditionsReplaced':
      if (event.data.conditions.length) obj.status.conditions = structuredClone(event.data.conditions);
      else delete obj.status.conditions;
      return obj;
    case 'ServiceManagedFieldsChanged':
      if (event.data.managedFields.length) obj.metadata.managedFields = structuredClone(event.data.managedFields);
      else delete obj.metadata.managedFields;
      return obj;
    case 'ServiceDeletionRequested':
      obj.metadata.deletionTimestamp = event.data.deletionTimestamp;
      obj.metadata.deletionGracePeriodSeconds = event.data.deletionGracePeriodSeconds;
      return obj;
    case 'ServiceDeleted':
      return null;
    default: {
      const unreachable: never = event;
      throw new Error(`unknown event ${(unreachable as ServiceEvent).type}`);
    }
  }
}
