// core/v1 Service for the engine: its schema, Go encoding and the Service strategies' reset
// fields (the object endpoint resets status, /status resets spec).
import { encodeService } from '../codec/service-encoder';
import { type Service } from '../service.types';
import { fieldPath } from './field-path';
import { FieldSet } from './field-set';
import { type ManagedKind, type Subresource } from './managed-kind';
import { SERVICE_MERGE_TYPE } from './service-merge-schema';
import { UNTRACKED_FIELDS } from './untracked-fields';

/** The plain JSON form the engine compares: Go's encoding of the Service, without managedFields. */
export function comparableService(svc: Service | undefined): Record<string, unknown> {
  const base = svc ?? { metadata: {}, spec: {}, status: { loadBalancer: {} } };
  const encoded = encodeService(base) as unknown as Record<string, unknown>;
  const metadata = { ...(encoded.metadata as Record<string, unknown>) };
  delete metadata.managedFields;
  return { ...encoded, metadata };
}

/** GetResetFields of serviceStrategy and serviceStatusStrategy (pkg/registry/core/service/strategy.go). */
function serviceResetFields(subresource: Subresource): FieldSet {
  return subresource === 'status' ? FieldSet.of(fieldPath('spec')) : FieldSet.of(fieldPath('status'));
}

export const SERVICE_MANAGED_KIND: ManagedKind<Service> = {
  group: '',
  version: 'v1',
  kind: 'Service',
  apiVersion: 'v1',
  mergeType: SERVICE_MERGE_TYPE,
  comparable: comparableService,
  encode: encodeService,
  resetFields: serviceResetFields,
  untrackedFields: UNTRACKED_FIELDS,
  entriesOfOtherVersions: 'comparedAsOwn',
};
