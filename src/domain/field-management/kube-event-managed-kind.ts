// core/v1 Event for the engine. eventStrategy has no GetResetFields and Events no subresource
// (pkg/registry/core/event/strategy.go), so nothing is reset; entries recorded through
// events.k8s.io/v1 are dropped, because the legacy group's type converter only knows the core
// types (apiserver pkg/server/genericapiserver.go getOpenAPIModels per install call).
import { encodeKubeEvent } from '../codec/kube-event-encoder';
import { type KubeEvent } from '../kube-event/kube-event.types';
import { FieldSet } from './field-set';
import { CORE_EVENT_MERGE_TYPE } from './kube-event-merge-schema';
import { type ManagedKind } from './managed-kind';
import { UNTRACKED_FIELDS } from './untracked-fields';

/** scope.Creater.New: the Event a create starts from. */
export const EMPTY_EVENT: KubeEvent = { metadata: {}, involvedObject: {}, reportingComponent: '', reportingInstance: '' };

/** Go's encoding of the core/v1 Event (source `{}`, zero times null, reporting fields ""), without managedFields. */
export function comparableKubeEvent(event: KubeEvent | undefined): Record<string, unknown> {
  const encoded = encodeKubeEvent(event ?? EMPTY_EVENT) as unknown as Record<string, unknown>;
  const metadata = { ...(encoded.metadata as Record<string, unknown>) };
  delete metadata.managedFields;
  return { ...encoded, metadata };
}

export const CORE_EVENT_MANAGED_KIND: ManagedKind<KubeEvent> = {
  group: '',
  version: 'v1',
  kind: 'Event',
  apiVersion: 'v1',
  mergeType: CORE_EVENT_MERGE_TYPE,
  comparable: comparableKubeEvent,
  encode: encodeKubeEvent,
  resetFields: () => FieldSet.EMPTY,
  untrackedFields: UNTRACKED_FIELDS,
  entriesOfOtherVersions: 'dropped',
};
