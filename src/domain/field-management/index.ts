// Field management and server-side apply for core/v1 Service: the public surface, which is what
// the rest of svctrail uses (knip keeps it that way). See README.md beside this file for the
// model and the algorithms.
export { applyConfiguration, managerName, updateManagedFields } from './field-manager';
export type { Subresource } from './field-manager';
export { ApplyConflictError } from './apply-conflict.error';
export { MergeValidationError } from './object-merge';
export { ignoreManagedFieldsTimestamps } from './managed-fields-timestamps';
export { ownershipChanges } from './ownership-diff';
export type { FieldOwner } from './ownership-diff';
export type { OwnershipWrite } from './ownership-write';
