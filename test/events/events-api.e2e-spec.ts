// The core/v1 Events API as controllers' event recorders use it (client-go tools/record): POST,
// strategic-merge PATCH of count/lastTimestamp/message, 404 on a missing Event so the recorder
// falls back to POST, and every other verb, beside the Events derived from the Services' log.
import { encodeKubeObject, decodeKubeObject } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const EVENTS = '/api/v1/namespaces/ev/events';
const SMP = 'application/strategic-merge-patch+json';

/** What tools/record makeEvent sends for an Event about a Service (eventTime null, no reportingInstance). */
function recorderEvent(name: string, overrides: Record<string, unknown> = {}) {
  return {
    metadata: { name, namespace: 'ev' },
    involvedObject: { kind: 'Service', namespace: 'ev', name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '1' },
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
    ...overrides,
  };
}

describeEachBackend('core/v1 Events written by controllers', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
    await t.client.post('/api/v1/namespaces/ev/services', { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
  });
  afterAll(async () => t.stop());

  it("given the recorder's first occurrence, when it is POSTed, then 201 with the stored Event (uid, resourceVersion, creationTimestamp)", async () => {
    const res = await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d01'));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ kind: 'Event', apiVersion: 'v1', count: 1, reason: 'EnsuringLoadBalancer', reportingInstance: '', eventTime: null });
    expect(res.json.metadata).toMatchObject({ name: 'web.187f0e1a2b3c4d01', namespace: 'ev' });
    expect(res.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(res.json.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(res.json.metadata.creationTimestamp).toMatch(/Z$/);
  });

  it('given a posted Event, when the recorder PATCHes count, lastTimestamp and message, then the Event is the repeat', async () => {
    await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d02'));
    const res = await t.client.request('PATCH', `${EVENTS}/web.187f0e1a2b3c4d02`, {
      body: JSON.stringify({ count: 2, lastTimestamp: '2026-12-07T10:00:05Z', message: 'Ensuring load balancer again' }),
      contentType: SMP,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ count: 2, lastTimestamp: '2026-12-07T10:00:05Z', message: 'Ensuring load balancer again', firstTimestamp: '2026-12-07T10:00:00Z' });
    expect((await t.client.get(`${EVENTS}/web.187f0e1a2b3c4d02`)).json.count).toBe(2);
  });

  it('given no such Event, when the recorder PATCHes it, then 404 NotFound (never 5xx), and its POST then succeeds', async () => {
    const res = await t.client.request('PATCH', `${EVENTS}/web.187f0e1a2b3c4d03`, { body: JSON.stringify({ count: 5 }), contentType: SMP });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: 'events "web.187f0e1a2b3c4d03" not found',
      details: { name: 'web.187f0e1a2b3c4d03', kind: 'events' },
    });
    expect((await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d03', { count: 5 }))).status).toBe(201);
  });

  it('given a live Event, when it is POSTed again, then 409 AlreadyExists', async () => {
    await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d04'));
    const res = await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d04'));
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ reason: 'AlreadyExists', message: 'events "web.187f0e1a2b3c4d04" already exists' });
  });

  it("given an Event about another namespace's object, when it is POSTed, then 422 with kube-apiserver's cause", async () => {
    const res = await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d05', { involvedObject: { kind: 'Service', namespace: 'other', name: 'web' } }));
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      reason: 'Invalid',
      message: 'Event "web.187f0e1a2b3c4d05" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace',
      details: {
        name: 'web.187f0e1a2b3c4d05',
        kind: 'Event',
        causes: [{ reason: 'FieldValueInvalid', field: 'involvedObject.namespace', message: 'Invalid value: "other": does not match event.namespace' }],
      },
    });
  });

  it('given a body in another namespace than the URL, when it is POSTed, then 400', async () => {
    const res = await t.client.post('/api/v1/namespaces/other/events', recorderEvent('web.187f0e1a2b3c4d06'));
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('given Events about web, when listed by involvedObject, then the derived Events and the written ones, in log order', async () => {
    const res = await t.client.get(`${EVENTS}?fieldSelector=involvedObject.kind=Service,involvedObject.name=web`);
    expect(res.status).toBe(200);
    const items: any[] = res.json.items;
    expect(items[0]).toMatchObject({ reason: 'Created', source: { component: 'svctrail' } });
    expect(items.map((e) => e.metadata.name)).toEqual(expect.arrayContaining(['web.187f0e1a2b3c4d01', 'web.187f0e1a2b3c4d02']));
    const positions = items.map((e) => Number(e.metadata.resourceVersion));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const byReason = await t.client.get(`${EVENTS}?fieldSelector=reason=EnsuringLoadBalancer,source=service-controller`);
    expect(byReason.json.items.every((e: any) => e.reason === 'EnsuringLoadBalancer')).toBe(true);
    expect(byReason.json.items.length).toBeGreaterThanOrEqual(3);
  });

  it('given an unknown field label, when Events are listed, then 400', async () => {
    const res = await t.client.get(`${EVENTS}?fieldSelector=spec.foo=bar`);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('field label not supported: spec.foo');
  });

  it('given a written Event, when deleted, then a Success Status naming it, and it is gone', async () => {
    const created = await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d07'));
    const res = await t.client.delete(`${EVENTS}/web.187f0e1a2b3c4d07`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'web.187f0e1a2b3c4d07', kind: 'events', uid: created.json.metadata.uid } });
    expect((await t.client.get(`${EVENTS}/web.187f0e1a2b3c4d07`)).status).toBe(404);
  });

  it('given an Event in protobuf (the cloud service controller), when POSTed, then stored and answered in protobuf', async () => {
    const body = Buffer.from(encodeKubeObject('Event', { apiVersion: 'v1', kind: 'Event', ...recorderEvent('web.187f0e1a2b3c4d08', { reason: 'EnsuredLoadBalancer' }) }));
    const res = await t.client.post(EVENTS, body, { contentType: 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const answered = decodeKubeObject(res.bytes) as any;
    expect(answered).toMatchObject({ kind: 'Event', reason: 'EnsuredLoadBalancer', count: 1, involvedObject: { name: 'web' } });
    expect((await t.client.get(`${EVENTS}/web.187f0e1a2b3c4d08`)).json.reason).toBe('EnsuredLoadBalancer');
  });

  it('given a watch on the namespace, when an Event is created, repeated and deleted, then ADDED, MODIFIED and DELETED', async () => {
    const head = (await t.client.get(EVENTS)).json.metadata.resourceVersion;
    const watch = await t.client.stream(`${EVENTS}?watch=true&resourceVersion=${head}&fieldSelector=involvedObject.name=web,reason=SyncLoadBalancerFailed`);
    await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d09', { reason: 'SyncLoadBalancerFailed', type: 'Warning' }));
    await t.client.request('PATCH', `${EVENTS}/web.187f0e1a2b3c4d09`, { body: JSON.stringify({ count: 2 }), contentType: SMP });
    await t.client.delete(`${EVENTS}/web.187f0e1a2b3c4d09`);
    const lines = await watch.take(3);
    watch.response.destroy();
    expect(lines.map((l) => [l.type, l.object.count])).toEqual([
      ['ADDED', 1],
      ['MODIFIED', 2],
      ['DELETED', 2],
    ]);
  });

  it('given a LIST in pages, when Events change between the pages, then every page is as of the first (a consistent snapshot)', async () => {
    const PAGED = '/api/v1/namespaces/paged/events';
    const event = (name: string) => ({ ...recorderEvent(name), metadata: { name, namespace: 'paged' }, involvedObject: { kind: 'Service', namespace: 'paged', name: 'web' } });
    for (const name of ['e1.1800000000000001', 'e2.1800000000000002', 'e3.1800000000000003']) expect((await t.client.post(PAGED, event(name))).status).toBe(201);
    const first = await t.client.get(`${PAGED}?limit=1`);
    expect(first.json.items.map((e: any) => e.metadata.name)).toEqual(['e1.1800000000000001']);
    expect(first.json.metadata.continue).toBeTruthy();
    // After the first page: e2 repeats, e3 is deleted, e4 appears.
    await t.client.request('PATCH', `${PAGED}/e2.1800000000000002`, { body: JSON.stringify({ count: 7 }), contentType: SMP });
    await t.client.delete(`${PAGED}/e3.1800000000000003`);
    await t.client.post(PAGED, event('e4.1800000000000004'));
    const rest = await t.client.get(`${PAGED}?limit=10&continue=${first.json.metadata.continue}`);
    expect(rest.status).toBe(200);
    expect(rest.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    expect(rest.json.items.map((e: any) => [e.metadata.name, e.count])).toEqual([
      ['e2.1800000000000002', 1],
      ['e3.1800000000000003', 1],
    ]);
    expect(rest.json.metadata.continue).toBeUndefined();
    // A new LIST sees the present.
    const now = await t.client.get(PAGED);
    expect(now.json.items.map((e: any) => [e.metadata.name, e.count])).toEqual([
      ['e1.1800000000000001', 1],
      ['e2.1800000000000002', 7],
      ['e4.1800000000000004', 1],
    ]);
  });

  it('given a watch from resourceVersion 0, then ADDED for every current Event, derived and written', async () => {
    const watch = await t.client.stream(`${EVENTS}?watch=true&resourceVersion=0&fieldSelector=involvedObject.name=web`);
    const listed = (await t.client.get(`${EVENTS}?fieldSelector=involvedObject.name=web`)).json.items.map((e: any) => e.metadata.name);
    const added = await watch.take(listed.length);
    watch.response.destroy();
    expect(added.every((e) => e.type === 'ADDED')).toBe(true);
    expect(added.map((e) => e.object.metadata.name)).toEqual(listed);
  });

  it('given a written Event, when PATCHed with a JSON patch and a merge patch, then both apply; a patch that breaks the Event is 422 at field patch', async () => {
    await t.client.post(EVENTS, recorderEvent('web.187f0e1a2b3c4d10'));
    const json = await t.client.request('PATCH', `${EVENTS}/web.187f0e1a2b3c4d10`, {
      body: JSON.stringify([{ op: 'replace', path: '/count', value: 4 }]),
      contentType: 'application/json-patch+json',
    });
    expect(json.status).toBe(200);
    expect(json.json.count).toBe(4);
    const merge = await t.client.request('PATCH', `${EVENTS}/web.187f0e1a2b3c4d10`, {
      body: JSON.stringify({ message: 'merged', metadata: { labels: { a: 'b' } } }),
      contentType: 'application/merge-patch+json',
    });
    expect(merge.status).toBe(200);
    expect(merge.json).toMatchObject({ count: 4, message: 'merged', metadata: { labels: { a: 'b' } } });
    const broken = await t.client.request('PATCH', `${EVENTS}/web.187f0e1a2b3c4d10`, { body: JSON.stringify({ count: 'many' }), contentType: 'application/merge-patch+json' });
    expect(broken.status).toBe(422);
    expect(broken.json.details.causes[0].field).toBe('patch');
  });

  it('given written Events, when the namespace collection is deleted by label, then those Events are gone and the derived ones stay', async () => {
    const COLL = '/api/v1/namespaces/coll/events';
    const event = (name: string, labels: Record<string, string>) => ({
      ...recorderEvent(name),
      metadata: { name, namespace: 'coll', labels },
      involvedObject: { kind: 'Service', namespace: 'coll', name: 'web' },
    });
    await t.client.post('/api/v1/namespaces/coll/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    await t.client.post(COLL, event('a.1800000000000001', { team: 'x' }));
    await t.client.post(COLL, event('b.1800000000000002', { team: 'x' }));
    await t.client.post(COLL, event('c.1800000000000003', { team: 'y' }));
    const res = await t.client.delete(`${COLL}?labelSelector=team%3Dx`);
    expect(res.status).toBe(200);
    expect(res.json.kind).toBe('EventList');
    expect(res.json.items.map((e: any) => e.metadata.name)).toEqual(['a.1800000000000001', 'b.1800000000000002']);
    const left = (await t.client.get(COLL)).json.items.map((e: any) => e.metadata.name);
    expect(left.filter((n: string) => !n.startsWith('web.'))).toEqual(['c.1800000000000003']);
    expect(left.some((n: string) => n.startsWith('web.'))).toBe(true);
  });

  it("given a derived Event's name, when a controller POSTs an Event of that name, then 409 (the log's names are taken)", async () => {
    const derived = (await t.client.get(`${EVENTS}?fieldSelector=source=svctrail`)).json.items[0];
    const res = await t.client.post(EVENTS, recorderEvent(derived.metadata.name));
    expect(res.status).toBe(409);
    expect(res.json.reason).toBe('AlreadyExists');
  });
});
