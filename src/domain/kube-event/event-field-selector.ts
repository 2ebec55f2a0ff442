// An Event field selector as the LIST handler reads it for each API (Selector.Transform with the
// group version's field label conversion): core/v1 names the selectable fields directly
// (pkg/apis/core/v1/conversion.go), events.k8s.io/v1 names its own labels, each converted to the
// core/v1 one it selects by (pkg/apis/events/v1/conversion.go AddFieldLabelConversionsForEvent).
// An unknown label is 400 `field label not supported: <label>` in either.
import { type FieldSelector, parseFieldSelector } from '../selectors/field-selector';
import { KUBE_EVENT_SELECTABLE_FIELDS } from './kube-event-fields';
import type { EventApiVersion } from './kube-event.types';

/** events.k8s.io/v1 label → core/v1 label (`source` is kept, though the field is deprecatedSource). */
export const EVENTS_V1_FIELD_LABELS: Readonly<Record<string, string>> = {
  reason: 'reason',
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
  source: 'source',
  type: 'type',
  'metadata.namespace': 'metadata.namespace',
  'metadata.name': 'metadata.name',
};

/** The selector in core/v1 labels, whichever API's labels it was written in. Throws BadRequestError. */
export function parseEventFieldSelector(text: string, api: EventApiVersion): FieldSelector {
  if (api === 'v1') return parseFieldSelector(text, KUBE_EVENT_SELECTABLE_FIELDS);
  const selector = parseFieldSelector(text, Object.keys(EVENTS_V1_FIELD_LABELS));
  return { requirements: selector.requirements.map((r) => ({ ...r, field: EVENTS_V1_FIELD_LABELS[r.field] })) };
}
