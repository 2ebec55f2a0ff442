import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { normalizedEventFields } from './normalized-event-fields';

const base: KubeEvent = { metadata: { name: 'web.1', namespace: 'a' }, involvedObject: { kind: 'Service', name: 'web' }, reportingComponent: '', reportingInstance: '' };

describe('normalizedEventFields', () => {
  it('reads the legacy recorder: count, first and last timestamp, the reporting component', () => {
    const legacy: KubeEvent = {
      ...base,
      count: 4,
      firstTimestamp: '2026-03-01T00:00:00Z',
      lastTimestamp: '2026-03-01T00:05:00Z',
      eventTime: null,
      source: { component: 'service-controller' },
      reportingComponent: 'service-controller',
    };
    expect(normalizedEventFields(legacy)).toEqual({ count: 4, firstSeen: '2026-03-01T00:00:00Z', lastSeen: '2026-03-01T00:05:00Z', reportingController: 'service-controller', reportingInstance: '' });
  });

  it('reads the events.k8s.io recorder: the series count, eventTime first, the series last observation last', () => {
    const series: KubeEvent = {
      ...base,
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: '2026-03-01T00:00:00.123456Z',
      series: { count: 7, lastObservedTime: '2026-03-01T00:30:00.000001Z' },
      reportingComponent: 'ipallocator-repair-controller',
      reportingInstance: 'ipallocator-repair-controller-cp-1',
    };
    expect(normalizedEventFields(series)).toEqual({
      count: 7,
      firstSeen: '2026-03-01T00:00:00.123456Z',
      lastSeen: '2026-03-01T00:30:00.000001Z',
      reportingController: 'ipallocator-repair-controller',
      reportingInstance: 'ipallocator-repair-controller-cp-1',
    });
  });

  it('a first occurrence of the new recorder (no count, no series) happened once, at its eventTime', () => {
    expect(normalizedEventFields({ ...base, eventTime: '2026-03-01T00:00:00.000000Z', count: 0 })).toMatchObject({
      count: 1,
      firstSeen: '2026-03-01T00:00:00.000000Z',
      lastSeen: '2026-03-01T00:00:00.000000Z',
    });
  });

  it('an old client named only in source: controller and instance from it', () => {
    expect(normalizedEventFields({ ...base, source: { component: 'kubelet', host: 'node-1' } })).toMatchObject({ reportingController: 'kubelet', reportingInstance: 'node-1' });
  });

  it('an Event that says no time has none, not an empty string', () => {
    expect(normalizedEventFields({ ...base, firstTimestamp: '', lastTimestamp: null })).toMatchObject({ firstSeen: null, lastSeen: null, count: 1 });
  });
});
