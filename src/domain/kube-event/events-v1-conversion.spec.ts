import fc from 'fast-check';
import { decodeEventsV1EventProtobuf, decodeEventsV1EventText } from '../codec/events-v1-event-decoder';
import { encodeEventsV1Event } from '../codec/events-v1-event-encoder';
import { formatRfc3339Micro, formatRfc3339Utc } from '../codec/go-time';
import { decodeKubeEventText } from '../codec/kube-event-decoder';
import { encodeKubeEvent } from '../codec/kube-event-encoder';
import { encodeKubeObject } from '../codec/protobuf/kube-object-protobuf';
import { coreFromEventsV1, eventsV1FromCore } from './events-v1-conversion';
import type { EventsV1Event } from './events-v1-event.types';
import type { KubeEvent } from './kube-event.types';

const SECONDS = { min: 0, max: 4_102_444_800 };
const text = fc.option(fc.string({ maxLength: 12 }), { nil: undefined });
const time = fc.option(fc.integer(SECONDS).map(formatRfc3339Utc), { nil: null });
const microTime = fc.option(
  fc.tuple(fc.integer(SECONDS), fc.integer({ min: 0, max: 999_999 })).map(([s, us]) => formatRfc3339Micro(s, us)),
  { nil: null },
);
const objectReference = fc.record({ kind: text, namespace: text, name: text, uid: text, apiVersion: text, resourceVersion: text, fieldPath: text }, { requiredKeys: [] });
const metadata = fc.record({
  name: fc.stringMatching(/^[a-z0-9.]{1,20}$/),
  namespace: fc.constantFrom('default', 'ev'),
  uid: text,
  resourceVersion: fc.option(fc.nat().map(String), { nil: undefined }),
});
const series = fc.option(fc.record({ count: fc.integer({ min: 0, max: 1_000_000 }), lastObservedTime: microTime }), { nil: undefined });
const count = fc.option(fc.integer({ min: -5, max: 1_000_000 }), { nil: undefined });

/** Any core/v1 Event in its stored (canonical) form. */
const coreEvent: fc.Arbitrary<KubeEvent> = fc
  .record({
    metadata,
    involvedObject: objectReference,
    reason: text,
    message: text,
    source: fc.record({ component: text, host: text }, { requiredKeys: [] }),
    firstTimestamp: time,
    lastTimestamp: time,
    count,
    type: text,
    eventTime: microTime,
    series,
    action: text,
    related: fc.option(objectReference, { nil: undefined }),
    reportingComponent: fc.string({ maxLength: 12 }),
    reportingInstance: fc.string({ maxLength: 12 }),
  })
  .map((e) => encodeKubeEvent(e as KubeEvent));

/** Any events.k8s.io/v1 Event in its canonical form. */
const eventsV1Event: fc.Arbitrary<EventsV1Event> = fc
  .record({
    metadata,
    eventTime: microTime,
    series,
    reportingController: text,
    reportingInstance: text,
    action: text,
    reason: text,
    regarding: objectReference,
    related: fc.option(objectReference, { nil: undefined }),
    note: text,
    type: text,
    deprecatedSource: fc.record({ component: text, host: text }, { requiredKeys: [] }),
    deprecatedFirstTimestamp: time,
    deprecatedLastTimestamp: time,
    deprecatedCount: count,
  })
  .map((e) => encodeEventsV1Event(e as EventsV1Event));

describe('events.k8s.io/v1 ↔ core/v1 Event conversion', () => {
  it('given a core/v1 Event, when converted, then each field lands where conversion.go puts it', () => {
    const core = encodeKubeEvent({
      metadata: { name: 'web.1', namespace: 'ev', uid: 'u-1', resourceVersion: '7' },
      involvedObject: { kind: 'Service', namespace: 'ev', name: 'web', uid: 'svc', apiVersion: 'v1' },
      reason: 'SyncLoadBalancerFailed',
      message: 'quota exceeded',
      source: { component: 'service-controller', host: 'node-1' },
      firstTimestamp: '2026-12-07T10:00:00Z',
      lastTimestamp: '2026-12-07T10:00:05Z',
      count: 3,
      type: 'Warning',
      eventTime: '2026-12-07T10:00:00.000001Z',
      series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.500000Z' },
      action: 'Sync',
      related: { kind: 'Node', name: 'node-1' },
      reportingComponent: 'service-controller',
      reportingInstance: 'service-controller-node-1',
    });
    expect(eventsV1FromCore(core)).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: { name: 'web.1', namespace: 'ev', uid: 'u-1', resourceVersion: '7', creationTimestamp: null },
      eventTime: '2026-12-07T10:00:00.000001Z',
      series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.500000Z' },
      reportingController: 'service-controller',
      reportingInstance: 'service-controller-node-1',
      action: 'Sync',
      reason: 'SyncLoadBalancerFailed',
      regarding: { kind: 'Service', namespace: 'ev', name: 'web', uid: 'svc', apiVersion: 'v1' },
      related: { kind: 'Node', name: 'node-1' },
      note: 'quota exceeded',
      type: 'Warning',
      deprecatedSource: { component: 'service-controller', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-12-07T10:00:00Z',
      deprecatedLastTimestamp: '2026-12-07T10:00:05Z',
      deprecatedCount: 3,
    });
  });

  it("given the newer recorder's Event, when converted to core/v1, then Go's zero values are written as core/v1 writes them", () => {
    const stored = coreFromEventsV1({
      metadata: { name: 'web.2', namespace: 'ev' },
      eventTime: '2026-12-07T10:00:00.123456Z',
      reportingController: 'ipallocator-repair-controller',
      reportingInstance: 'ipallocator-repair-controller-host',
      action: 'ClusterIPAllocation',
      reason: 'ClusterIPNotAllocated',
      regarding: { kind: 'Service', name: 'web' },
      note: 'repairing',
      type: 'Warning',
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    expect(stored).toEqual({
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'web.2', namespace: 'ev', creationTimestamp: null },
      involvedObject: { kind: 'Service', name: 'web' },
      reason: 'ClusterIPNotAllocated',
      message: 'repairing',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Warning',
      eventTime: '2026-12-07T10:00:00.123456Z',
      action: 'ClusterIPAllocation',
      reportingComponent: 'ipallocator-repair-controller',
      reportingInstance: 'ipallocator-repair-controller-host',
    });
  });

  it('given any stored core/v1 Event, when converted to events.k8s.io/v1 and back, then it is unchanged', () => {
    fc.assert(
      fc.property(coreEvent, (core) => {
        expect(coreFromEventsV1(eventsV1FromCore(core))).toEqual(core);
      }),
    );
  });

  it('given any events.k8s.io/v1 Event, when converted to core/v1 and back, then it is unchanged', () => {
    fc.assert(
      fc.property(eventsV1Event, (event) => {
        expect(eventsV1FromCore(coreFromEventsV1(event))).toEqual(event);
      }),
    );
  });

  it('given any stored Event, when its events.k8s.io/v1 JSON is decoded as a request body and converted, then it is the stored Event (and the same holds for core/v1)', () => {
    fc.assert(
      fc.property(coreEvent, (core) => {
        const asEventsV1 = decodeEventsV1EventText(JSON.stringify(eventsV1FromCore(core)), { fieldValidation: 'Strict' });
        expect(asEventsV1.warnings).toEqual([]);
        expect(coreFromEventsV1(asEventsV1.object)).toEqual(core);
        expect(encodeKubeEvent(decodeKubeEventText(JSON.stringify(core), { fieldValidation: 'Strict' }).object)).toEqual(core);
      }),
    );
  });

  it('given any stored Event, when its events.k8s.io/v1 protobuf is decoded as a request body and converted, then it is the stored Event', () => {
    fc.assert(
      fc.property(coreEvent, (core) => {
        const body = Buffer.from(encodeKubeObject('EventsV1Event', eventsV1FromCore(core)));
        expect(coreFromEventsV1(decodeEventsV1EventProtobuf(body, { fieldValidation: 'Strict' }).object)).toEqual(core);
      }),
    );
  });
});
