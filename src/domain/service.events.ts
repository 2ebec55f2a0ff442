// Domain events of one Service incarnation (stream = metadata.uid). Facts in the past tense.
// Together they carry everything needed to rebuild, byte for byte, the object the API returned
// after each write (see service.evolve.ts).
import type { UnknownServiceFields } from './service-unknown-fields';
import type { Condition, LoadBalancerIngress, ManagedFieldsEntry, ObjectMeta, Service, ServiceSpec } from './service.types';

/** The object as created, without `metadata.resourceVersion` (that is the write's log position). */
export interface ServiceCreated {
  type: 'ServiceCreated';
  data: { object: Service };
}

/** The whole new spec (specs are small; a full value keeps replay trivial and exact). */
export interface ServiceSpecChanged {
  type: 'ServiceSpecChanged';
  data: { spec: ServiceSpec };
}

/** The user-mutable metadata after the write; an absent key means the field was removed. */
export type MutableMetadata = Pick<ObjectMeta, 'generation' | 'labels' | 'annotations' | 'ownerReferences' | 'finalizers'>;
export const MUTABLE_METADATA_KEYS = ['generation', 'labels', 'annotations', 'ownerReferences', 'finalizers'] as const;

export interface ServiceMetadataChanged {
  type: 'ServiceMetadataChanged';
  data: { metadata: MutableMetadata };
}

/** `status.loadBalancer.ingress` is an atomic list: the whole new value and the previous one. */
export interface LoadBalancerIngressChanged {
  type: 'LoadBalancerIngressChanged';
  data: { ingress: LoadBalancerIngress[]; previous: LoadBalancerIngress[] };
}

/** A condition (keyed by `type`) was added or changed; `previous` is null when it is new. */
export interface ServiceConditionChanged {
  type: 'ServiceConditionChanged';
  data: { condition: Condition; previous: Condition | null };
}

export interface ServiceConditionRemoved {
  type: 'ServiceConditionRemoved';
  data: { conditionType: string; previous: Condition };
}

/**
 * The conditions list after the write, when keyed changes alone cannot reproduce it: the order
 * changed, or a `type` occurs twice (kube-apiserver does not validate status.conditions).
 */
export interface ServiceConditionsReplaced {
  type: 'ServiceConditionsReplaced';
  data: { conditions: Condition[]; previous: Condition[] };
}

/**
 * Field ownership after the write (`metadata.managedFields`, whole; empty when none is kept).
 * Logs written before ownership was tracked have none of these, and fold to the answers they gave.
 */
export interface ServiceManagedFieldsChanged {
  type: 'ServiceManagedFieldsChanged';
  data: { managedFields: ManagedFieldsEntry[] };
}

/**
 * Mirror mode: the fields svctrail's schema does not know (a newer Kubernetes version's) at the
 * object's top level, its metadata, status or status.loadBalancer after the write, each level
 * whole, each member after the known field it follows. Deeper ones ride in the values other events
 * carry whole (a spec's travel in ServiceSpecChanged). A direct write that replaces a mirrored
 * object records their removal ({}).
 */
export interface ServiceUnknownFieldsChanged {
  type: 'ServiceUnknownFieldsChanged';
  data: { fields: UnknownServiceFields };
}

export interface ServiceDeletionRequested {
  type: 'ServiceDeletionRequested';
  data: { deletionTimestamp: string; deletionGracePeriodSeconds: number };
}

/** The object left storage; its cluster IPs and node ports are released. */
export interface ServiceDeleted {
  type: 'ServiceDeleted';
  data: Record<string, never>;
}

export type ServiceEvent =
  | ServiceCreated
  | ServiceSpecChanged
  | ServiceMetadataChanged
  | LoadBalancerIngressChanged
  | ServiceConditionChanged
  | ServiceConditionRemoved
  | ServiceConditionsReplaced
  | ServiceManagedFieldsChanged
  | ServiceUnknownFieldsChanged
  | ServiceDeletionRequested
  | ServiceDeleted;

export type ServiceEventType = ServiceEvent['type'];

export const SERVICE_EVENT_TYPES: readonly ServiceEventType[] = [
  'ServiceCreated',
  'ServiceSpecChanged',
  'ServiceMetadataChanged',
  'LoadBalancerIngressChanged',
  'ServiceConditionChanged',
  'ServiceConditionRemoved',
  'ServiceConditionsReplaced',
  'ServiceManagedFieldsChanged',
  'ServiceUnknownFieldsChanged',
  'ServiceDeletionRequested',
  'ServiceDeleted',
];
