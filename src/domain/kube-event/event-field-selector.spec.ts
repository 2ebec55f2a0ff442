import { BadRequestError } from '../errors/domain-errors';
import { EVENTS_V1_FIELD_LABELS, parseEventFieldSelector } from './event-field-selector';
import { KUBE_EVENT_SELECTABLE_FIELDS } from './kube-event-fields';

describe('Event field selectors per API', () => {
  it('given events.k8s.io labels, when parsed for events.k8s.io/v1, then each becomes the core/v1 label it selects by', () => {
    expect(parseEventFieldSelector('regarding.name=web,reportingController!=kubelet,source=lb,type==Warning', 'events.k8s.io/v1').requirements).toEqual([
      { field: 'involvedObject.name', operator: '=', value: 'web' },
      { field: 'reportingComponent', operator: '!=', value: 'kubelet' },
      { field: 'source', operator: '=', value: 'lb' },
      { field: 'type', operator: '==', value: 'Warning' },
    ]);
  });

  it('given core/v1 labels, when parsed for core/v1, then they are kept', () => {
    expect(parseEventFieldSelector('involvedObject.uid=u,reportingComponent=c', 'v1').requirements.map((r) => r.field)).toEqual(['involvedObject.uid', 'reportingComponent']);
  });

  it.each([
    ['involvedObject.name=web', 'events.k8s.io/v1', 'involvedObject.name'],
    ['reportingComponent=c', 'events.k8s.io/v1', 'reportingComponent'],
    ['regarding.name=web', 'v1', 'regarding.name'],
    // Transform runs over the sorted terms: the first unknown label in that order is the one named.
    ['zzz=1,note=x,regarding.kind=Service', 'events.k8s.io/v1', 'note'],
  ] as const)('given %s, when parsed for %s, then 400 field label not supported: %s', (text, api, label) => {
    expect(() => parseEventFieldSelector(text, api)).toThrow(BadRequestError);
    expect(() => parseEventFieldSelector(text, api)).toThrow(`field label not supported: ${label}`);
  });

  it('given every events.k8s.io label, when converted, then it names a field core/v1 can select by', () => {
    for (const label of Object.values(EVENTS_V1_FIELD_LABELS)) expect(KUBE_EVENT_SELECTABLE_FIELDS).toContain(label);
  });
});
