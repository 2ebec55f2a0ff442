// Which field management an Event write gets: the one of the API version it came through, as kube
// installs a field manager per group version of the one Event storage.
import { type EventApiVersion, type KubeEvent } from '../kube-event/kube-event.types';
import { EVENTS_V1_EVENT_MANAGED_KIND } from './events-v1-event-managed-kind';
import { CORE_EVENT_MANAGED_KIND } from './kube-event-managed-kind';
import { type ManagedKind } from './managed-kind';

export function kubeEventManagedKind(api: EventApiVersion): ManagedKind<KubeEvent> {
  return api === 'v1' ? CORE_EVENT_MANAGED_KIND : EVENTS_V1_EVENT_MANAGED_KIND;
}
