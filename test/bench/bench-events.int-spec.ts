// The bench's Event write cases and its mirror phase rest on a few pure pieces: what the recorder's
// requests look like, the managedFields the floors derive for them instead of running a field
// manager, and which watches the mirror phase's proxy expires. No timing here.
import { ownedFields } from '../../bench/floor/kube-events';
import { expiredWatch } from '../../bench/mirror';
import { Rng } from '../../bench/rng';
import { type EventAbout, eventPool, newEvent, recorderEvent, repeatOf, repeatPatch, SERVICE_CONTROLLER_EVENTS } from '../../bench/run/recorder-events';

const about: EventAbout = { ns: 'team-00', name: 'svc-00001', uid: '1673b960-bc75-4dce-b72b-4ab33bf89c70', rv: '9994' };

/** What kube-apiserver 1.32 records for the legacy recorder's POST (test/events/event-managed-fields.e2e-spec.ts). */
const RECORDER_FIELDS = {
  'f:count': {},
  'f:firstTimestamp': {},
  'f:involvedObject': {},
  'f:lastTimestamp': {},
  'f:message': {},
  'f:reason': {},
  'f:reportingComponent': {},
  'f:source': { 'f:component': {} },
  'f:type': {},
};

describe("the recorder's requests the Event cases send", () => {
  it('given a new Event, when its POST body is built, then it is client-go\'s encoding: Go struct order, creationTimestamp and eventTime null, reportingInstance ""', () => {
    const body = recorderEvent(about, 'svc-00001.18ec000000000001', SERVICE_CONTROLLER_EVENTS[0], new Date('2026-12-07T10:00:00.123Z'));
    expect(body).toBe(
      '{"kind":"Event","apiVersion":"v1","metadata":{"name":"svc-00001.18ec000000000001","namespace":"team-00","creationTimestamp":null},' +
        '"involvedObject":{"kind":"Service","namespace":"team-00","name":"svc-00001","uid":"1673b960-bc75-4dce-b72b-4ab33bf89c70","apiVersion":"v1","resourceVersion":"9994"},' +
        '"reason":"EnsuringLoadBalancer","message":"Ensuring load balancer","source":{"component":"service-controller"},' +
        '"firstTimestamp":"2026-12-07T10:00:00Z","lastTimestamp":"2026-12-07T10:00:00Z","count":1,"type":"Normal","eventTime":null,' +
        '"reportingComponent":"service-controller","reportingInstance":""}',
    );
  });

  it('given a repeat, when its PATCH body is built, then it is exactly count, lastTimestamp (seconds) and message', () => {
    expect(repeatPatch(7, 'Ensured load balancer', new Date('2026-12-07T10:00:05.900Z'))).toBe('{"count":7,"lastTimestamp":"2026-12-07T10:00:05Z","message":"Ensured load balancer"}');
  });

  it('given many POSTs, when each is built, then every name is new and shaped <object>.<hex nanoseconds>', () => {
    const rng = new Rng(1);
    const names = Array.from({ length: 1000 }, () => JSON.parse(newEvent(rng, [about]).body).metadata.name as string);
    expect(new Set(names).size).toBe(1000);
    for (const name of names) expect(name).toMatch(/^svc-00001\.[0-9a-f]{16}$/);
  });

  it('given the pool, when built, then at most two live Events per object, each with another reason, names the same on every build', () => {
    const objects = Array.from({ length: 5 }, (_, i): EventAbout => ({ ...about, name: `svc-${i}` }));
    const pool = eventPool(objects, 100);
    expect(pool.events).toHaveLength(10);
    expect(eventPool(objects, 100).events.map((e) => e.name)).toEqual(pool.events.map((e) => e.name));
    for (const object of objects) {
      const reasons = pool.events.filter((e) => e.about.name === object.name).map((e) => e.said.reason);
      expect(new Set(reasons).size).toBe(2);
    }
  });

  it('given repeats of the pool, when built, then each count is one more than the last sent for that Event, so every PATCH changes it', () => {
    const pool = eventPool([about], 1);
    const rng = new Rng(2);
    const counts = Array.from({ length: 3 }, () => JSON.parse(repeatOf(rng, pool).body).count as number);
    expect(counts).toEqual([2, 3, 4]);
  });
});

describe("the floors' managedFields for the recorder's Event", () => {
  it("given the recorder's POST body, when the floor derives the writer's fields, then they are kube-apiserver's FieldsV1 for it", () => {
    const body = JSON.parse(recorderEvent(about, 'svc-00001.18ec000000000001', SERVICE_CONTROLLER_EVENTS[0]));
    expect(JSON.stringify(ownedFields(body))).toBe(JSON.stringify(RECORDER_FIELDS));
  });

  it('given empty values and atomic references, when derived, then empties are not owned and involvedObject and related are owned whole', () => {
    expect(ownedFields({ involvedObject: { kind: 'Service', name: 'x' }, related: { kind: 'Pod', name: 'p' }, series: { count: 2 }, note: '', action: null })).toEqual({
      'f:involvedObject': {},
      'f:related': {},
      'f:series': { 'f:count': {} },
    });
  });
});

describe("the mirror phase's expiring proxy", () => {
  const at = (path: string) => new URL(path, 'https://source');

  it('given a source compacted up to its head, when a watch resumes from below it, then it is expired, for Services and for Events alike', () => {
    expect(expiredWatch(at('/api/v1/services?watch=true&resourceVersion=9957&allowWatchBookmarks=true'), 9958)).toBe(true);
    expect(expiredWatch(at('/api/v1/events?fieldSelector=involvedObject.kind%3DService&watch=true&resourceVersion=120'), 9958)).toBe(true);
  });

  it('given the same source, when a watch starts at the head (where the relist listed), then it is served: a kube-apiserver never compacts past its head', () => {
    expect(expiredWatch(at('/api/v1/services?watch=true&resourceVersion=9958'), 9958)).toBe(false);
    expect(expiredWatch(at('/api/v1/events?watch=true&resourceVersion=9958'), 9958)).toBe(false);
  });

  it('given the same source, when the mirror lists, then the LIST goes through whatever its resourceVersion', () => {
    expect(expiredWatch(at('/api/v1/services?limit=500&resourceVersion=0'), 9958)).toBe(false);
    expect(expiredWatch(at('/api/v1/events?limit=1000'), 9958)).toBe(false);
  });
});
