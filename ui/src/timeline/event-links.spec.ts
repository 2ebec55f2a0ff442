import { ingressChanges, LINK_WINDOW_MS, linkEventsToIngressChanges, type OccurrenceItem, type ServiceChangeItem } from './event-links';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const web = { namespace: 'a', name: 'web', uid: 'uid-1' };

const occurrence = (rv: number, at: number, reason: string, extra: Partial<OccurrenceItem> = {}): OccurrenceItem => ({
  metadata: { resourceVersion: String(rv) },
  time: new Date(T0 + at).toISOString(),
  happened: 'created',
  event: { namespace: 'a', name: `web.${rv}`, uid: `event-${rv}` },
  involvedObject: { kind: 'Service', namespace: 'a', name: 'web', uid: 'uid-1' },
  type: 'Normal',
  reason,
  message: '',
  count: 1,
  firstSeen: null,
  lastSeen: null,
  reportingController: 'metallb-controller',
  reportingInstance: '',
  action: '',
  actor: { user: 'metallb', userAgent: 'metallb/1', fieldManager: 'metallb' },
  ...extra,
});

const change = (rv: number, at: number, service = web, from = 'none', to = '203.0.113.7'): ServiceChangeItem => ({
  metadata: { resourceVersion: String(rv) },
  time: new Date(T0 + at).toISOString(),
  service,
  events: [{ type: 'LoadBalancerIngressChanged', data: { previous: from === 'none' ? [] : [{ ip: from }], ingress: [{ ip: to }] } }, { type: 'ServiceManagedFieldsChanged' }],
});

const linked = (events: OccurrenceItem[], changes: ServiceChangeItem[]) =>
  Object.fromEntries([...linkEventsToIngressChanges(events, ingressChanges(changes))].map(([rv, c]) => [rv, c.resourceVersion]));

describe('which ingress change an Event explains', () => {
  it('an IPAllocated followed by the ingress change of the same Service explains it, with what it changed', () => {
    const links = linkEventsToIngressChanges([occurrence(5, 0, 'IPAllocated')], ingressChanges([change(6, 200)]));
    expect([...links.keys()]).toEqual([5]);
    expect(links.get(5)).toEqual({ resourceVersion: 6, time: T0 + 200, service: web, summary: 'ingress none → 203.0.113.7' });
  });

  it("the cloud service controller's EnsuredLoadBalancer and UpdatedLoadBalancer, MetalLB's ClearAssignment, a DeletedLoadBalancer", () => {
    for (const reason of ['EnsuredLoadBalancer', 'UpdatedLoadBalancer', 'ClearAssignment', 'DeletedLoadBalancer']) expect(linked([occurrence(5, 0, reason)], [change(6, 1000)])).toEqual({ 5: 6 });
  });

  it('an Event that reports no such work explains nothing, even right before a change (a Warning, EnsuringLoadBalancer)', () => {
    expect(linked([occurrence(5, 0, 'SyncLoadBalancerFailed', { type: 'Warning' }), occurrence(6, 10, 'EnsuringLoadBalancer')], [change(7, 100)])).toEqual({});
  });

  it('only a change recorded within the window after the Event', () => {
    expect(linked([occurrence(5, 0, 'IPAllocated')], [change(6, LINK_WINDOW_MS)])).toEqual({ 5: 6 });
    expect(linked([occurrence(5, 0, 'IPAllocated')], [change(6, LINK_WINDOW_MS + 1)])).toEqual({});
  });

  it('a change before the Event is not explained by it; the first change after it is', () => {
    expect(linked([occurrence(5, 1000, 'IPAllocated')], [change(4, 900), change(7, 2000, web, '203.0.113.7', '203.0.113.8'), change(9, 3000)])).toEqual({ 5: 7 });
  });

  it('another Service, or another incarnation of the same name, is not explained', () => {
    expect(linked([occurrence(5, 0, 'IPAllocated')], [change(6, 100, { namespace: 'b', name: 'api', uid: 'uid-2' })])).toEqual({});
    expect(linked([occurrence(5, 0, 'IPAllocated')], [change(6, 100, { ...web, uid: 'uid-3' })])).toEqual({});
    // An Event about a Pod of the same name explains nothing about the Service.
    expect(linked([occurrence(5, 0, 'IPAllocated', { involvedObject: { kind: 'Pod', namespace: 'a', name: 'web', uid: 'uid-1' } })], [change(6, 100)])).toEqual({});
  });

  it('an Event that names no uid is matched by namespace and name', () => {
    expect(linked([occurrence(5, 0, 'IPAllocated', { involvedObject: { kind: 'Service', namespace: 'a', name: 'web' } })], [change(6, 100)])).toEqual({ 5: 6 });
  });

  it('two reports of one assignment: the later one explains the change, the earlier one nothing', () => {
    expect(linked([occurrence(5, 0, 'IPAllocated'), occurrence(6, 100, 'IPAllocated', { happened: 'repeated', count: 2 })], [change(7, 200)])).toEqual({ 6: 7 });
  });

  it("an Event's deletion or expiry explains nothing", () => {
    expect(linked([occurrence(5, 0, 'IPAllocated', { happened: 'deleted' }), occurrence(6, 10, 'IPAllocated', { happened: 'expired' })], [change(7, 100)])).toEqual({});
  });

  it('each assignment its own change: a report, a change, a report, a change', () => {
    expect(linked([occurrence(5, 0, 'IPAllocated'), occurrence(8, 5000, 'ClearAssignment')], [change(6, 100), change(9, 5100, web, '203.0.113.7', 'none')])).toEqual({ 5: 6, 8: 9 });
  });

  it('only writes that changed the ingress are ingress changes', () => {
    expect(ingressChanges([{ ...change(6, 0), events: [{ type: 'ServiceConditionChanged' }] }])).toEqual([]);
  });
});
