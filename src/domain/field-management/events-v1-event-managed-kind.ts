// The stored Event as events.k8s.io/v1 writes it: compared in that version (the stored core/v1
// form converted, pkg/apis/events/v1/conversion.go), entries recorded as `events.k8s.io/v1`
// with its field names (f:note, f:regarding, f:deprecatedSource…). The same eventStrategy, so
// nothing is reset; core/v1 entries are dropped, because the non-core groups' type converter has
// no core/v1 Event (apiserver pkg/server/genericapiserver.go InstallAPIGroups: one converter for
// the resources of the groups installed together, and their references only).
import { eventsV1FromCore } from '../kube-event/events-v1-conversion';
import { EVENTS_GROUP, EVENTS_V1 } from '../kube-event/events-v1-event.types';
import { type KubeEvent } from '../kube-event/kube-event.types';
import { EVENTS_V1_EVENT_MERGE_TYPE } from './events-v1-event-merge-schema';
import { FieldSet } from './field-set';
import { CORE_EVENT_MANAGED_KIND, EMPTY_EVENT } from './kube-event-managed-kind';
import { type ManagedKind } from './managed-kind';
import { UNTRACKED_FIELDS } from './untracked-fields';

/** Go's encoding of the Event in events.k8s.io/v1 (eventTime and regarding always there), without managedFields. */
export function comparableEventsV1Event(event: KubeEvent | undefined): Record<string, unknown> {
  const encoded = eventsV1FromCore(event ?? EMPTY_EVENT) as unknown as Record<string, unknown>;
  const metadata = { ...(encoded.metadata as Record<string, unknown>) };
  delete metadata.managedFields;
  return { ...encoded, metadata };
}

export const EVENTS_V1_EVENT_MANAGED_KIND: ManagedKind<KubeEvent> = {
  group: EVENTS_GROUP,
  version: 'v1',
  kind: 'Event',
  apiVersion: EVENTS_V1,
  mergeType: EVENTS_V1_EVENT_MERGE_TYPE,
  comparable: comparableEventsV1Event,
  // The stored form is core/v1's whichever API wrote it.
  encode: CORE_EVENT_MANAGED_KIND.encode,
  resetFields: () => FieldSet.EMPTY,
  untrackedFields: UNTRACKED_FIELDS,
  entriesOfOtherVersions: 'dropped',
};
