// events.k8s.io/v1 as kube-apiserver serves it: the same Events as core/v1 (one store), converted.
// The newer recorder (client-go tools/events) POSTs eventTime/reportingController/action/note,
// strategic-merge PATCHes `series` on a repeat and POSTs with series after a 404; a core/v1
// recorder's Event reads back with the deprecated* fields, and the other way round. Errors name
// events.k8s.io's resource, validation is the strict one, bodies and answers speak protobuf too.
import { decodeKubeObject, encodeKubeObject } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { describeEachBackend } from '../helpers/storage-backends';
import { PROTOBUF, TYPED_CLIENT_ACCEPT, TypedClient } from '../helpers/protobuf-client';
import type { TestServer } from '../helpers/test-server';

const NS = 'evk';
const V1 = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const CORE = `/api/v1/namespaces/${NS}/events`;
const SMP = 'application/strategic-merge-patch+json';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

/** What tools/events makeEvent sends (event_recorder.go): eventTime in µs, no deprecated* field. */
function newRecorderEvent(name: string, overrides: Record<string, unknown> = {}) {
  return {
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: { name, namespace: NS, creationTimestamp: null },
    eventTime: '2026-12-07T10:00:00.123456Z',
    reportingController: 'ipallocator-repair-controller',
    reportingInstance: 'ipallocator-repair-controller-node-1',
    action: 'ClusterIPAllocation',
    reason: 'ClusterIPNotAllocated',
    regarding: { kind: 'Service', namespace: NS, name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '1' },
    note: 'Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing',
    type: 'Warning',
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
    ...overrides,
  };
}

/** What tools/record makeEvent sends to core/v1 (eventTime null, count, source). */
function legacyRecorderEvent(name: string) {
  return {
    metadata: { name, namespace: NS },
    involvedObject: { kind: 'Service', namespace: NS, name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '1' },
    reason: 'EnsuringLoadBalancer',
    message: 'Ensuring load balancer',
    source: { component: 'service-controller' },
    firstTimestamp: '2026-12-07T10:00:00Z',
    lastTimestamp: '2026-12-07T10:00:00Z',
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'service-controller',
    reportingInstance: '',
  };
}

describeEachBackend('events.k8s.io/v1 Events', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
    await t.client.post(`/api/v1/namespaces/${NS}/services`, { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
  });
  afterAll(async () => t.stop());

  describe('the newer recorder (tools/events)', () => {
    it('given its first occurrence, when POSTed, then 201 with the events.k8s.io/v1 Event as Go writes it', async () => {
      const res = await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d01'));
      expect(res.status).toBe(201);
      const { metadata, ...rest } = res.json;
      expect(Object.keys(res.json)).toEqual([
        'kind',
        'apiVersion',
        'metadata',
        'eventTime',
        'reportingController',
        'reportingInstance',
        'action',
        'reason',
        'regarding',
        'note',
        'type',
        'deprecatedSource',
        'deprecatedFirstTimestamp',
        'deprecatedLastTimestamp',
      ]);
      expect(rest).toEqual({
        kind: 'Event',
        apiVersion: 'events.k8s.io/v1',
        eventTime: '2026-12-07T10:00:00.123456Z',
        reportingController: 'ipallocator-repair-controller',
        reportingInstance: 'ipallocator-repair-controller-node-1',
        action: 'ClusterIPAllocation',
        reason: 'ClusterIPNotAllocated',
        regarding: { kind: 'Service', namespace: NS, name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '1' },
        note: 'Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing',
        type: 'Warning',
        deprecatedSource: {},
        deprecatedFirstTimestamp: null,
        deprecatedLastTimestamp: null,
      });
      expect(metadata).toMatchObject({ name: 'web.188a0e1a2b3c4d01', namespace: NS });
      expect(metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(metadata.resourceVersion)).toBeGreaterThan(0);
    });

    it('given a posted Event, when the 2nd occurrence PATCHes its series (strategic merge), then the series is stored and core/v1 reads it', async () => {
      await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d02'));
      const res = await t.client.request('PATCH', `${V1}/web.188a0e1a2b3c4d02`, {
        body: JSON.stringify({ series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.000042Z' } }),
        contentType: SMP,
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.000042Z' }, eventTime: '2026-12-07T10:00:00.123456Z' });
      const core = (await t.client.get(`${CORE}/web.188a0e1a2b3c4d02`)).json;
      expect(core).toMatchObject({
        kind: 'Event',
        apiVersion: 'v1',
        involvedObject: { kind: 'Service', name: 'web' },
        message: 'Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing',
        source: {},
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: '2026-12-07T10:00:00.123456Z',
        series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.000042Z' },
        action: 'ClusterIPAllocation',
        reportingComponent: 'ipallocator-repair-controller',
        reportingInstance: 'ipallocator-repair-controller-node-1',
      });
      expect(core.count).toBeUndefined();
    });

    it('given no such Event, when the recorder PATCHes its series, then 404 naming events.events.k8s.io, and its POST with series succeeds', async () => {
      const patch = await t.client.request('PATCH', `${V1}/web.188a0e1a2b3c4d03`, {
        body: JSON.stringify({ series: { count: 3, lastObservedTime: '2026-12-07T10:00:09.000000Z' } }),
        contentType: SMP,
      });
      expect(patch.status).toBe(404);
      expect(patch.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'events.events.k8s.io "web.188a0e1a2b3c4d03" not found',
        reason: 'NotFound',
        details: { name: 'web.188a0e1a2b3c4d03', group: 'events.k8s.io', kind: 'events' },
        code: 404,
      });
      const created = await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d03', { series: { count: 3, lastObservedTime: '2026-12-07T10:00:09.000000Z' } }));
      expect(created.status).toBe(201);
      expect(created.json.series).toEqual({ count: 3, lastObservedTime: '2026-12-07T10:00:09.000000Z' });
    });
  });

  it("given a core/v1 recorder's Event, when read through events.k8s.io, then the deprecated fields carry count, source and times", async () => {
    await t.client.post(CORE, legacyRecorderEvent('web.188a0e1a2b3c4d10'));
    await t.client.request('PATCH', `${CORE}/web.188a0e1a2b3c4d10`, { body: JSON.stringify({ count: 2, lastTimestamp: '2026-12-07T10:00:05Z' }), contentType: SMP });
    const res = await t.client.get(`${V1}/web.188a0e1a2b3c4d10`);
    expect(res.status).toBe(200);
    const { metadata: _metadata, ...rest } = res.json;
    expect(rest).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      eventTime: null,
      reportingController: 'service-controller',
      reason: 'EnsuringLoadBalancer',
      regarding: { kind: 'Service', namespace: NS, name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '1' },
      note: 'Ensuring load balancer',
      type: 'Normal',
      deprecatedSource: { component: 'service-controller' },
      deprecatedFirstTimestamp: '2026-12-07T10:00:00Z',
      deprecatedLastTimestamp: '2026-12-07T10:00:05Z',
      deprecatedCount: 2,
    });
  });

  it('given the Events svctrail derives from the log, when listed through events.k8s.io, then they are there too, converted', async () => {
    const res = await t.client.get(`${V1}?fieldSelector=regarding.name=web,reason=Created`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1', metadata: { resourceVersion: expect.any(String) } });
    expect(res.json.items).toHaveLength(1);
    const [derived] = res.json.items;
    expect(derived).toMatchObject({ reportingController: 'svctrail', deprecatedSource: { component: 'svctrail' }, deprecatedCount: 1, regarding: { kind: 'Service', name: 'web' }, eventTime: null });
    expect(derived.kind).toBeUndefined();
    // …and one by name, as core/v1 serves it.
    const one = await t.client.get(`${V1}/${derived.metadata.name}`);
    expect(one.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: derived.note, metadata: { uid: derived.metadata.uid } });
  });

  describe('field selectors (AddFieldLabelConversionsForEvent)', () => {
    it('given events.k8s.io labels, when listing, then regarding.* and reportingController select as involvedObject.* and reportingComponent', async () => {
      const byRegarding = await t.client.get(`${V1}?fieldSelector=${encodeURIComponent('regarding.kind=Service,regarding.uid=svc-uid,type=Warning')}`);
      expect(byRegarding.status).toBe(200);
      expect(byRegarding.json.items.map((e: any) => e.metadata.name)).toEqual(['web.188a0e1a2b3c4d01', 'web.188a0e1a2b3c4d02', 'web.188a0e1a2b3c4d03']);
      const byController = await t.client.get(`/apis/events.k8s.io/v1/events?fieldSelector=reportingController%3Dservice-controller`);
      expect(byController.json.items.map((e: any) => e.metadata.name)).toEqual(['web.188a0e1a2b3c4d10']);
      const bySource = await t.client.get(`${V1}?fieldSelector=source%3Dipallocator-repair-controller`);
      expect(bySource.json.items).toHaveLength(3);
    });

    it.each(['involvedObject.name', 'reportingComponent', 'deprecatedSource', 'note'])('given the label %s, when listing through events.k8s.io, then 400 field label not supported', async (label) => {
      const res = await t.client.get(`${V1}?fieldSelector=${encodeURIComponent(`${label}=x`)}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: `field label not supported: ${label}` });
    });
  });

  describe('strict validation and errors', () => {
    it('given an Event without eventTime and with deprecated fields set, when POSTed through events.k8s.io, then 422 naming the internal fields', async () => {
      const res = await t.client.post(
        V1,
        newRecorderEvent('web.188a0e1a2b3c4d20', { eventTime: null, type: 'Odd', deprecatedCount: 3, deprecatedFirstTimestamp: '2026-12-07T10:00:00Z', deprecatedSource: { component: 'x' } }),
      );
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({
        reason: 'Invalid',
        message:
          'Event "web.188a0e1a2b3c4d20" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Odd, firstTimestamp: Invalid value: "": needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]',
        details: { name: 'web.188a0e1a2b3c4d20', kind: 'Event' },
      });
      expect(res.json.details.group).toBeUndefined();
      expect(res.json.details.causes.map((c: any) => c.field)).toEqual(['eventTime', 'type', 'firstTimestamp', 'count', 'source']);
    });

    it('given the same Event through core/v1, when POSTed, then the legacy rules accept it', async () => {
      const res = await t.client.post(CORE, { ...legacyRecorderEvent('web.188a0e1a2b3c4d21'), type: 'Odd' });
      expect(res.status).toBe(201);
    });

    it('given an Event missing action and reportingInstance, when POSTed, then 422 with Required causes', async () => {
      const res = await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d22', { action: '', reportingInstance: '' }));
      expect(res.status).toBe(422);
      expect(res.json.message).toBe('Event "web.188a0e1a2b3c4d22" is invalid: [reportingInstance: Required value, action: Required value]');
    });

    it('given a name that is no DNS subdomain, when POSTed through events.k8s.io, then 422 at metadata.name (core/v1 takes it)', async () => {
      const res = await t.client.post(V1, newRecorderEvent('Web.188a'));
      expect(res.status).toBe(422);
      expect(res.json.details.causes[0]).toMatchObject({ field: 'metadata.name', reason: 'FieldValueInvalid' });
    });

    it('given a live Event, when POSTed again, then 409 AlreadyExists naming events.events.k8s.io', async () => {
      const res = await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d01'));
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({
        reason: 'AlreadyExists',
        message: 'events.events.k8s.io "web.188a0e1a2b3c4d01" already exists',
        details: { name: 'web.188a0e1a2b3c4d01', group: 'events.k8s.io', kind: 'events' },
      });
    });

    it('given a stale resourceVersion, when PUT, then 409 Conflict on events.events.k8s.io', async () => {
      const live = (await t.client.get(`${V1}/web.188a0e1a2b3c4d01`)).json;
      const res = await t.client.put(`${V1}/web.188a0e1a2b3c4d01`, { ...live, metadata: { ...live.metadata, resourceVersion: '1' } });
      expect(res.status).toBe(409);
      expect(res.json.message).toBe(
        'Operation cannot be fulfilled on events.events.k8s.io "web.188a0e1a2b3c4d01": the object has been modified; please apply your changes to the latest version and try again',
      );
      expect(res.json.details).toEqual({ name: 'web.188a0e1a2b3c4d01', group: 'events.k8s.io', kind: 'events' });
    });

    it('given an Event, when its note changes through events.k8s.io (PUT or merge patch), then 422 field is immutable at message', async () => {
      const live = (await t.client.get(`${V1}/web.188a0e1a2b3c4d01`)).json;
      const put = await t.client.put(`${V1}/web.188a0e1a2b3c4d01`, { ...live, note: 'other' });
      expect(put.status).toBe(422);
      expect(put.json.message).toBe('Event "web.188a0e1a2b3c4d01" is invalid: message: Invalid value: "other": field is immutable');
      const merge = await t.client.request('PATCH', `${V1}/web.188a0e1a2b3c4d01`, { body: JSON.stringify({ note: 'other' }), contentType: 'application/merge-patch+json' });
      expect(merge.status).toBe(422);
      expect(merge.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "other": field is immutable', field: 'message' }]);
    });

    it('given a JSON patch naming events.k8s.io fields, when applied, then it patches the events.k8s.io/v1 view', async () => {
      const res = await t.client.request('PATCH', `${V1}/web.188a0e1a2b3c4d01`, {
        body: JSON.stringify([
          { op: 'test', path: '/regarding/name', value: 'web' },
          { op: 'add', path: '/metadata/labels', value: { team: 'net' } },
        ]),
        contentType: 'application/json-patch+json',
      });
      expect(res.status).toBe(200);
      expect(res.json.metadata.labels).toEqual({ team: 'net' });
      const wrongView = await t.client.request('PATCH', `${V1}/web.188a0e1a2b3c4d01`, {
        body: JSON.stringify([{ op: 'test', path: '/involvedObject/name', value: 'web' }]),
        contentType: 'application/json-patch+json',
      });
      // core/v1's names are not in this view: the test op fails, as a failed JSON patch does (422).
      expect(wrongView.status).toBe(422);
      expect(wrongView.json).toMatchObject({ reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
    });

    it('given a core/v1 Event body, when POSTed to events.k8s.io, then 400 for the group version (and the other way round)', async () => {
      const res = await t.client.post(V1, { apiVersion: 'v1', kind: 'Event', ...legacyRecorderEvent('web.188a0e1a2b3c4d23') });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)');
      const back = await t.client.post(CORE, newRecorderEvent('web.188a0e1a2b3c4d23'));
      expect(back.status).toBe(400);
      expect(back.json.message).toBe('the API version in the data (events.k8s.io/v1) does not match the expected API version (v1)');
    });

    it('given a core/v1 field name, when POSTed with fieldValidation=Strict, then 400 strict decoding error', async () => {
      const res = await t.client.post(`${V1}?fieldValidation=Strict`, newRecorderEvent('web.188a0e1a2b3c4d24', { message: 'hi' }));
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('Event in version "v1" cannot be handled as a Event: strict decoding error: unknown field "message"');
    });

    it('given an eventTime without microseconds, when POSTed, then 400 from MicroTime parsing', async () => {
      const res = await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d25', { eventTime: '2026-12-07T10:00:00Z' }));
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('Event in version "v1" cannot be handled as a Event: parsing time "2026-12-07T10:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
    });

    it('given a YAML body, when POSTed, then it is decoded as events.k8s.io/v1', async () => {
      const yaml = [
        'apiVersion: events.k8s.io/v1',
        'kind: Event',
        'metadata: {name: web.188a0e1a2b3c4d26}',
        'eventTime: "2026-12-07T10:00:00.000001Z"',
        'reportingController: example.com/lb',
        'reportingInstance: lb-0',
        'action: Sync',
        'reason: Synced',
        'type: Normal',
        `regarding: {kind: Service, namespace: ${NS}, name: web}`,
        'note: from yaml',
      ].join('\n');
      const res = await t.client.post(V1, yaml, { contentType: 'application/yaml', accept: 'application/yaml' });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe('application/yaml');
      expect(res.text).toContain('apiVersion: events.k8s.io/v1');
      expect(res.text).toContain('note: from yaml');
    });
  });

  describe('protobuf', () => {
    it('given an events.k8s.io/v1 Event in protobuf, when POSTed, then the answer is an events.k8s.io/v1 envelope', async () => {
      const typed = new TypedClient(t.client);
      const body = Buffer.from(encodeKubeObject('EventsV1Event', newRecorderEvent('web.188a0e1a2b3c4d30', { eventTime: '2026-12-07T10:00:00.999999Z' })));
      const res = await t.client.post(V1, body, { contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe(PROTOBUF);
      expect(res.bytes.subarray(0, 4)).toEqual(Buffer.from([0x6b, 0x38, 0x73, 0x00]));
      const answered = decodeKubeObject(res.bytes) as any;
      expect(answered).toMatchObject({
        kind: 'Event',
        apiVersion: 'events.k8s.io/v1',
        eventTime: '2026-12-07T10:00:00.999999Z',
        reportingController: 'ipallocator-repair-controller',
        regarding: { name: 'web' },
      });
      const list = await typed.get(V1);
      expect(list.contentType).toBe(PROTOBUF);
      expect(list.object).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1' });
      expect(list.object.items.find((e: any) => e.metadata.name === 'web.188a0e1a2b3c4d30')).toMatchObject({ note: 'Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing' });
      const missing = await typed.get(`${V1}/nothing-here`);
      expect(missing.contentType).toBe(PROTOBUF);
      expect(missing.object).toMatchObject({ kind: 'Status', code: 404, message: 'events.events.k8s.io "nothing-here" not found' });
    });

    it('given a core/v1 Event envelope, when POSTed to events.k8s.io in protobuf, then 400 for the group version', async () => {
      const body = Buffer.from(encodeKubeObject('Event', { apiVersion: 'v1', kind: 'Event', ...legacyRecorderEvent('web.188a0e1a2b3c4d31') }));
      const res = await t.client.post(V1, body, { contentType: PROTOBUF });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)');
    });
  });

  describe('watch', () => {
    it('given a watch through events.k8s.io, when an Event is created, repeated and deleted (through either API), then ADDED, MODIFIED and DELETED as events.k8s.io/v1', async () => {
      const head = (await t.client.get(V1)).json.metadata.resourceVersion;
      const watch = await t.client.stream(`${V1}?watch=true&resourceVersion=${head}&fieldSelector=${encodeURIComponent('regarding.name=web,reason=SyncFailed')}`);
      await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d40', { reason: 'SyncFailed' }));
      await t.client.request('PATCH', `${V1}/web.188a0e1a2b3c4d40`, { body: JSON.stringify({ series: { count: 2, lastObservedTime: '2026-12-07T10:01:00.000000Z' } }), contentType: SMP });
      await t.client.delete(`${CORE}/web.188a0e1a2b3c4d40`);
      const events = await watch.take(3);
      watch.close();
      expect(events.map((e) => [e.type, e.object.apiVersion, e.object.series?.count ?? 1])).toEqual([
        ['ADDED', 'events.k8s.io/v1', 1],
        ['MODIFIED', 'events.k8s.io/v1', 2],
        ['DELETED', 'events.k8s.io/v1', 2],
      ]);
      expect(events[0].object).toMatchObject({ kind: 'Event', note: expect.any(String), regarding: { name: 'web' } });
    });

    it('given a protobuf watch, when an Event is written, then its frames carry events.k8s.io/v1 envelopes', async () => {
      const typed = new TypedClient(t.client);
      const head = (await t.client.get(V1)).json.metadata.resourceVersion;
      const watch = await typed.watch(`${V1}?watch=true&resourceVersion=${head}`);
      expect(watch.contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
      await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d41'));
      const event = await watch.next();
      watch.close();
      expect(event).toMatchObject({ type: 'ADDED', object: { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { name: 'web.188a0e1a2b3c4d41' }, action: 'ClusterIPAllocation' } });
    });
  });

  it('given the deprecated watch paths of events.k8s.io, when Events are written, then the list watch and the one-Event watch see them as events.k8s.io/v1', async () => {
    const head = (await t.client.get(V1)).json.metadata.resourceVersion;
    const all = await t.client.stream(`/apis/events.k8s.io/v1/watch/namespaces/${NS}/events?resourceVersion=${head}`);
    const one = await t.client.stream(`/apis/events.k8s.io/v1/watch/namespaces/${NS}/events/web.188a0e1a2b3c4d42?resourceVersion=${head}`);
    await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d43'));
    await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d42'));
    await t.client.request('PATCH', `${V1}/web.188a0e1a2b3c4d42`, { body: JSON.stringify({ series: { count: 2, lastObservedTime: '2026-12-07T10:02:00.000000Z' } }), contentType: SMP });
    const seenByAll = await all.take(3);
    const seenByOne = await one.take(2);
    all.close();
    one.close();
    expect(seenByAll.map((e) => [e.type, e.object.metadata.name, e.object.apiVersion])).toEqual([
      ['ADDED', 'web.188a0e1a2b3c4d43', 'events.k8s.io/v1'],
      ['ADDED', 'web.188a0e1a2b3c4d42', 'events.k8s.io/v1'],
      ['MODIFIED', 'web.188a0e1a2b3c4d42', 'events.k8s.io/v1'],
    ]);
    expect(seenByOne.map((e) => [e.type, e.object.metadata.name, e.object.series?.count])).toEqual([
      ['ADDED', 'web.188a0e1a2b3c4d42', undefined],
      ['MODIFIED', 'web.188a0e1a2b3c4d42', 2],
    ]);
  });

  it('given kubectl asking for a Table, when listing through events.k8s.io, then the core/v1 printer columns, and rows embed events.k8s.io/v1 objects', async () => {
    const res = await t.client.get(`${V1}?includeObject=Object`, { accept: TABLE });
    expect(res.status).toBe(200);
    expect(res.json.kind).toBe('Table');
    expect(res.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    const row = res.json.rows.find((r: any) => r.object.metadata.name === 'web.188a0e1a2b3c4d02');
    expect(row.object).toMatchObject({ kind: 'Event', apiVersion: 'events.k8s.io/v1', series: { count: 2 } });
    expect(row.cells.slice(1, 4)).toEqual(['Warning', 'ClusterIPNotAllocated', 'service/web']);
    expect(row.cells[5]).toBe('ipallocator-repair-controller, ipallocator-repair-controller-node-1');
    expect(row.cells[8]).toBe(2);
  });

  describe('delete', () => {
    it('given a written Event, when deleted through events.k8s.io, then a Success Status naming the group', async () => {
      const created = await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d50'));
      const res = await t.client.delete(`${V1}/web.188a0e1a2b3c4d50`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: 'web.188a0e1a2b3c4d50', group: 'events.k8s.io', kind: 'events', uid: created.json.metadata.uid },
      });
      expect((await t.client.get(`${CORE}/web.188a0e1a2b3c4d50`)).status).toBe(404);
    });

    it('given written Events, when their collection is deleted through events.k8s.io by selector, then the deleted events.k8s.io/v1 EventList', async () => {
      await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d51', { reason: 'Doomed' }));
      await t.client.post(V1, newRecorderEvent('web.188a0e1a2b3c4d52', { reason: 'Doomed' }));
      const res = await t.client.delete(`${V1}?fieldSelector=reason%3DDoomed`);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1' });
      expect(res.json.items.map((e: any) => [e.metadata.name, e.note])).toEqual([
        ['web.188a0e1a2b3c4d51', 'Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing'],
        ['web.188a0e1a2b3c4d52', 'Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing'],
      ]);
      expect((await t.client.get(`${V1}?fieldSelector=reason%3DDoomed`)).json.items).toEqual([]);
    });
  });

  it('given a method events.k8s.io does not route, when called, then 405', async () => {
    const res = await t.client.put(V1, {});
    expect(res.status).toBe(405);
    expect(res.json.reason).toBe('MethodNotAllowed');
  });
});
