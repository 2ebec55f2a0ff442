import type { IngressChange, OccurrenceItem } from './event-links';
import { eventLane } from './event-lane';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');

const occurrence = (rv: number, extra: Partial<OccurrenceItem> = {}): OccurrenceItem => ({
  metadata: { resourceVersion: String(rv) },
  time: new Date(T0 + rv * 1000).toISOString(),
  happened: 'created',
  event: { namespace: 'a', name: `web.${rv}`, uid: `event-${rv}` },
  involvedObject: { kind: 'Service', namespace: 'a', name: 'web', uid: 'uid-1' },
  type: 'Normal',
  reason: 'IPAllocated',
  message: 'Assigned IP ["203.0.113.7"]',
  count: 1,
  firstSeen: '2026-03-01T00:00:05Z',
  lastSeen: '2026-03-01T00:00:05Z',
  reportingController: 'metallb-controller',
  reportingInstance: '',
  action: '',
  actor: { user: 'metallb', userAgent: 'metallb/1', fieldManager: 'metallb' },
  ...extra,
});

describe('the lane of controllers’ Events', () => {
  it('a Normal Event is a point at its write, saying its reason, who reported it, what, and which ingress change it explains', () => {
    const change: IngressChange = { resourceVersion: 6, time: T0 + 6000, service: { namespace: 'a', name: 'web', uid: 'uid-1' }, summary: 'ingress none → 203.0.113.7' };
    const lane = eventLane([occurrence(5)], new Map([[5, change]]));
    expect(lane).toMatchObject({ id: 'events', kind: 'events', title: 'Events' });
    expect(lane.segments).toEqual([
      {
        start: T0 + 5000,
        end: T0 + 5000,
        label: 'IPAllocated',
        style: 'event',
        detail:
          'Normal IPAllocated created; by metallb-controller; “Assigned IP ["203.0.113.7"]”; seen 2026-03-01T00:00:05Z; written by metallb at rv 5; explains the ingress change at rv 6 (ingress none → 203.0.113.7)',
        at: T0 + 5000,
        link: T0 + 6000,
      },
    ]);
  });

  it('a Warning says so in its text and style, with its count and when it was first and last seen', () => {
    const [segment] = eventLane(
      [
        occurrence(7, {
          type: 'Warning',
          reason: 'SyncLoadBalancerFailed',
          message: 'quota exceeded',
          happened: 'repeated',
          count: 3,
          firstSeen: '2026-03-01T00:00:01Z',
          lastSeen: '2026-03-01T00:00:07Z',
          reportingController: 'service-controller',
          reportingInstance: 'cp-1',
        }),
      ],
      new Map(),
    ).segments;
    expect(segment.style).toBe('warning');
    expect(segment.label).toBe('Warning SyncLoadBalancerFailed ×3');
    expect(segment.detail).toBe(
      'Warning SyncLoadBalancerFailed repeated, count 3; by service-controller (cp-1); “quota exceeded”; first seen 2026-03-01T00:00:01Z, last seen 2026-03-01T00:00:07Z; written by metallb at rv 7',
    );
    expect(segment.link).toBeUndefined();
  });

  it('an Event without reason, type, controller or times still reads as words', () => {
    const [segment] = eventLane([occurrence(8, { type: '', reason: '', reportingController: '', message: '', firstSeen: null, lastSeen: null })], new Map()).segments;
    expect(segment.label).toBe('(no reason)');
    expect(segment.detail).toBe('untyped (no reason) created; by an unnamed controller; no message; written by metallb at rv 8');
  });
});
