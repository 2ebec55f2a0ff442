// Field management and server-side apply, per kind (core/v1 Service, core/v1 Event): the public
// surface, which is what the rest of svctrail uses (knip keeps it that way). See README.md beside
// this file for the model and the algorithms.
export { applyConfiguration, managerName, updateManagedFields } from './field-manager';
export type { ManagedKind, ManagedObject, Subresource } from './managed-kind';
export { SERVICE_MANAGED_KIND } from './service-managed-kind';
export { CORE_EVENT_MANAGED_KIND } from './kube-event-managed-kind';
export { EVENTS_V1_EVENT_MANAGED_KIND } from './events-v1-event-managed-kind';
export { kubeEventManagedKind } from './event-managed-kind';
export { ApplyConflictError } from './apply-conflict.error';
export { MergeValidationError } from './object-merge';
export { ignoreManagedFieldsTimestamps } from './managed-fields-timestamps';
export { ownershipChanges } from './ownership-diff';
export type { FieldOwner } from './ownership-diff';
export type { OwnershipWrite } from './ownership-write';
