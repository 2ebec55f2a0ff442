// The fields a core/v1 Event can be selected by (pkg/registry/core/event/strategy.go
// ToSelectableFields; the labels pkg/apis/core/v1/conversion.go accepts for Event).
import type { KubeEvent } from './kube-event.types';

/** Field values of an Event for field selectors. */
export function kubeEventFieldSet(event: KubeEvent): Record<string, string> {
  const involved = event.involvedObject ?? {};
  // `source` falls back to the reporting controller, so an events.k8s.io recorder's Event matches too.
  const source = event.source?.component || event.reportingComponent || '';
  return {
    'metadata.name': event.metadata.name ?? '',
    'metadata.namespace': event.metadata.namespace ?? '',
    'involvedObject.kind': involved.kind ?? '',
    'involvedObject.namespace': involved.namespace ?? '',
    'involvedObject.name': involved.name ?? '',
    'involvedObject.uid': involved.uid ?? '',
    'involvedObject.apiVersion': involved.apiVersion ?? '',
    'involvedObject.resourceVersion': involved.resourceVersion ?? '',
    'involvedObject.fieldPath': involved.fieldPath ?? '',
    reason: event.reason ?? '',
    reportingComponent: event.reportingComponent ?? '',
    source,
    type: event.type ?? '',
  };
}

/** Every field label a core/v1 Event field selector may name; any other is a 400. */
export const KUBE_EVENT_SELECTABLE_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
];
