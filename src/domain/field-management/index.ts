// Field management and server-side apply for core/v1 Service: the public surface.
// See README.md beside this file for the model and the algorithms.
export {
  applyConfiguration,
  capUpdateManagers,
  comparableService,
  managerName,
  MAX_UPDATE_MANAGERS,
  requestManagedFieldsIntent,
  resetFieldsFor,
  UNTRACKED_FIELDS,
  updateManagedFields,
} from './field-manager';
export type { ApplyInput, ApplyOutcome, RequestManagedFieldsIntent, Subresource, UpdateManagedFieldsInput } from './field-manager';
export { ApplyConflictError, conflictMessage, printManager } from './apply-conflict.error';
export type { FieldConflict } from './apply-conflict.error';
export { MergeValidationError } from './object-merge';
export { FieldSet, FieldSetBuilder } from './field-set';
export { fieldPath, fieldPathToString, compareFieldPaths } from './field-path';
export type { FieldPath } from './field-path';
export { fieldElement, keyElement, valueElement, indexElement, pathElementToString, serializePathElement } from './path-element';
export type { PathElement } from './path-element';
export { fieldSetToFieldsV1, fieldsV1Json, fieldsV1ToFieldSet } from './fields-v1';
export type { FieldsV1 } from './fields-v1';
export { decodeManagedFields, encodeManagedFields, managerIdentifier, ManagedFieldsDecodeError } from './managed-fields-codec';
export type { ManagedState } from './managed-fields-codec';
export { compareObjects } from './object-comparison';
export type { Comparison } from './object-comparison';
export { toFieldSet } from './to-field-set';
export { SERVICE_MERGE_TYPE } from './service-merge-schema';
export { LAST_APPLIED_ANNOTATION } from './last-applied';
export { ignoreManagedFieldsTimestamps } from './managed-fields-timestamps';
export { ownershipChanges, ownersOf } from './ownership-diff';
export type { FieldOwner, OwnershipChange } from './ownership-diff';
