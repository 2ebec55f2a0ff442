// Fields no manager ever owns, whatever the kind (managedfields/internal/stripmeta.go): removed
// member-wise from the writer's set after every write.
import { fieldPath } from './field-path';
import { FieldSet } from './field-set';

export const UNTRACKED_FIELDS = FieldSet.of(
  fieldPath('apiVersion'),
  fieldPath('kind'),
  fieldPath('metadata'),
  fieldPath('metadata', 'name'),
  fieldPath('metadata', 'namespace'),
  fieldPath('metadata', 'creationTimestamp'),
  fieldPath('metadata', 'selfLink'),
  fieldPath('metadata', 'uid'),
  fieldPath('metadata', 'clusterName'),
  fieldPath('metadata', 'generation'),
  fieldPath('metadata', 'managedFields'),
  fieldPath('metadata', 'resourceVersion'),
);
