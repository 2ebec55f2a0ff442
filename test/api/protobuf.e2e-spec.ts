// A client that behaves like client-go >= 0.32's typed core/v1 client (protobuf bodies, protobuf
// first in Accept), as MetalLB and kube-vip do for UpdateStatus, against the real server over
// HTTPS. Every answer is compared with what the JSON path answers for the same request.
import { SERVICE_CHANGES } from '../../src/store/ports/service-changes';
import type { ServiceChanges } from '../../src/store/ports/service-changes';
import { WatchRegistry } from '../../src/watch/watch-registry';
import { PROTOBUF, protobufBody, TypedClient, TYPED_CLIENT_ACCEPT } from '../helpers/protobuf-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

const NS = '/api/v1/namespaces/pb/services';

/** The parts of a Service that differ between two creates of the same body. */
function normalized(svc: any): any {
  const copy = JSON.parse(JSON.stringify(svc));
  delete copy.metadata.name;
  delete copy.metadata.uid;
  delete copy.metadata.resourceVersion;
  delete copy.metadata.creationTimestamp;
  // Two creates a moment apart may straddle a second boundary.
  for (const entry of copy.metadata.managedFields ?? []) delete entry.time;
  delete copy.spec.clusterIP;
  delete copy.spec.clusterIPs;
  for (const port of copy.spec.ports ?? []) delete port.nodePort;
  return copy;
}

describe('protobuf: a client-go typed client, compared with the JSON path', () => {
  let t: TestServer;
  let typed: TypedClient;

  beforeAll(async () => {
    t = await startTestServer();
    typed = new TypedClient(t.client);
  });
  afterAll(async () => {
    await t.stop();
  });

  const body = (name: string) => ({
    metadata: { name, labels: { app: 'demo' }, annotations: { note: 'ünïcode ✓' } },
    spec: {
      type: 'LoadBalancer',
      selector: { app: 'demo' },
      ports: [
        { name: 'http', port: 80, targetPort: 'http' },
        { name: 'dns', port: 53, protocol: 'UDP' },
      ],
    },
  });

  it('create, get and list answer protobuf that decodes to exactly the JSON answers', async () => {
    const created = await typed.create(NS, body('web'));
    expect(created.status).toBe(201);
    expect(created.contentType).toBe(PROTOBUF);
    const json = await t.client.get(`${NS}/web`);
    expect(created.object).toEqual(json.json);

    const viaJson = await t.client.post(NS, body('web-json'));
    expect(viaJson.status).toBe(201);
    expect(normalized(created.object)).toEqual(normalized(viaJson.json));

    const got = await typed.get(`${NS}/web`);
    expect(got.contentType).toBe(PROTOBUF);
    expect(got.object).toEqual(json.json);

    const list = await typed.get(NS);
    expect(list.contentType).toBe(PROTOBUF);
    expect(list.object).toEqual((await t.client.get(NS)).json);
    expect(list.object.items.map((s: any) => s.metadata.name)).toEqual(['web', 'web-json']);

    // Both writes left the same events in the log.
    const changes = (await t.client.get('/apis/history.svctrail.io/v1alpha1/namespaces/pb/changes')).json.items;
    const types = (name: string) => changes.filter((c: any) => c.service.name === name).flatMap((c: any) => c.events.map((e: any) => e.type));
    expect(types('web')).toEqual(['ServiceCreated']);
    expect(types('web-json')).toEqual(types('web'));
  });

  it('dry run in protobuf stores nothing and answers like the JSON dry run', async () => {
    const dry = await typed.create(`${NS}?dryRun=All`, body('dry'));
    expect(dry.status).toBe(201);
    const jsonDry = await t.client.post(`${NS}?dryRun=All`, body('dry'));
    expect(normalized(dry.object)).toEqual(normalized(jsonDry.json));
    expect((await t.client.get(`${NS}/dry`)).status).toBe(404);
  });

  it('update and UpdateStatus (a new ingress, as MetalLB and kube-vip write it)', async () => {
    const current = (await typed.get(`${NS}/web`)).object;
    const updated = await typed.update(`${NS}/web`, { ...current, metadata: { ...current.metadata, labels: { app: 'web', tier: 'front' } } });
    expect(updated.status).toBe(200);
    expect(updated.object).toEqual((await t.client.get(`${NS}/web`)).json);

    const withIngress = { ...updated.object, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP' }] }] } } };
    const status = await typed.update(`${NS}/web/status`, withIngress);
    expect(status.status).toBe(200);
    expect(status.contentType).toBe(PROTOBUF);
    expect(status.object.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.7', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP' }] }]);
    expect(status.object).toEqual((await t.client.get(`${NS}/web/status`)).json);

    const owners = await t.client.get('/apis/history.svctrail.io/v1alpha1/ingressowners?address=203.0.113.7');
    expect(JSON.stringify(owners.json)).toContain('web');
  });

  it('a stale UpdateStatus is a 409 Status in protobuf, equal to the JSON path’s', async () => {
    const current = (await typed.get(`${NS}/web`)).object;
    const stale = { ...current, metadata: { ...current.metadata, resourceVersion: '1' }, status: { loadBalancer: { ingress: [{ ip: '203.0.113.8' }] } } };
    const conflict = await typed.update(`${NS}/web/status`, stale);
    expect(conflict.status).toBe(409);
    expect(conflict.contentType).toBe(PROTOBUF);
    const jsonConflict = await t.client.put(`${NS}/web/status`, stale);
    expect(conflict.object).toEqual(jsonConflict.json);
    expect(conflict.object).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409, details: { name: 'web', kind: 'services' } });
  });

  it('validation errors (422 with causes) and not-found (404) come back as protobuf Status', async () => {
    const invalid = await typed.create(NS, { metadata: { name: 'Bad_Name' }, spec: { ports: [{ port: 0 }] } });
    expect(invalid.status).toBe(422);
    expect(invalid.contentType).toBe(PROTOBUF);
    const jsonInvalid = await t.client.post(NS, { metadata: { name: 'Bad_Name' }, spec: { ports: [{ port: 0 }] } });
    expect(invalid.object).toEqual(jsonInvalid.json);
    expect(invalid.object.details.causes.length).toBeGreaterThan(1);

    const missing = await typed.get(`${NS}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.object).toEqual((await t.client.get(`${NS}/nope`)).json);
  });

  it('malformed protobuf bodies are 400 Status answers, never 500, and store nothing', async () => {
    const before = (await t.client.get(NS)).json.metadata.resourceVersion;
    const bodies: Buffer[] = [
      Buffer.from('not protobuf'),
      Buffer.from('k8s\0', 'latin1'),
      Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])]),
      Buffer.concat([protobufBody('Service', body('trunc')).subarray(0, 40)]),
      Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from([0x12, 0x02, 0x08, 0x01])]),
    ];
    for (const bad of bodies) {
      const res = await t.client.request('POST', NS, { body: bad, contentType: PROTOBUF, accept: 'application/json' });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
    }
    const wrongKind = await t.client.request('POST', NS, { body: protobufBody('Event', {}), contentType: PROTOBUF });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json.message).toBe((await t.client.post(NS, { kind: 'Event', apiVersion: 'v1' })).json.message);
    expect((await t.client.get(NS)).json.metadata.resourceVersion).toBe(before);
  });

  it('delete with protobuf DeleteOptions preconditions', async () => {
    const svc = (await typed.get(`${NS}/web-json`)).object;
    const wrongUid = await typed.delete(`${NS}/web-json`, { preconditions: { uid: 'not-the-uid' } });
    expect(wrongUid.status).toBe(409);
    expect(wrongUid.contentType).toBe(PROTOBUF);
    const jsonWrongUid = await t.client.delete(`${NS}/web-json`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } } });
    expect(wrongUid.object).toEqual(jsonWrongUid.json);
    const dry = await typed.delete(`${NS}/web-json`, { dryRun: ['All'], preconditions: { uid: svc.metadata.uid } });
    expect(dry.status).toBe(200);
    expect((await t.client.get(`${NS}/web-json`)).status).toBe(200);
    const deleted = await typed.delete(`${NS}/web-json`, { preconditions: { uid: svc.metadata.uid, resourceVersion: svc.metadata.resourceVersion } });
    expect(deleted.status).toBe(200);
    expect(deleted.object.metadata.name).toBe('web-json');
    expect((await t.client.get(`${NS}/web-json`)).status).toBe(404);
  });

  it('deletecollection with a protobuf DeleteOptions body answers a protobuf ServiceList', async () => {
    const ns = '/api/v1/namespaces/pb-collection/services';
    await typed.create(ns, body('one'));
    await typed.create(ns, body('two'));
    const dry = await t.client.request('DELETE', ns, { body: protobufBody('DeleteOptions', { dryRun: ['All'] }), contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
    expect(dry.status).toBe(200);
    expect(dry.headers['content-type']).toBe(PROTOBUF);
    expect((await t.client.get(ns)).json.items).toHaveLength(2);
    const gone = await t.client.request('DELETE', ns, { body: protobufBody('DeleteOptions', {}), contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
    expect(gone.status).toBe(200);
    expect((await t.client.get(ns)).json.items).toHaveLength(0);
  });

  it('Events watch in protobuf: Event envelopes in WatchEvent frames', async () => {
    const watch = await typed.watch('/api/v1/namespaces/pb-events/events?watch=true');
    try {
      await typed.create('/api/v1/namespaces/pb-events/services', body('evented'));
      const frame = await watch.next();
      expect(frame?.type).toBe('ADDED');
      expect(frame?.object).toMatchObject({ kind: 'Event', apiVersion: 'v1', involvedObject: { kind: 'Service', name: 'evented' }, reason: 'Created' });
      const json = (await t.client.get(`/api/v1/namespaces/pb-events/events/${frame?.object.metadata.name}`)).json;
      expect(frame?.object).toEqual(json);
    } finally {
      watch.close();
    }
  });

  it('watch: length-prefixed WatchEvent frames, ADDED/MODIFIED/DELETED/BOOKMARK, equal to the JSON watch', async () => {
    const registry = t.server.app.get(WatchRegistry);
    const previous = registry.bookmarkIntervalMs;
    const head = (await t.client.get(NS)).json.metadata.resourceVersion;
    const path = `${NS}?watch=true&resourceVersion=${head}`;
    const pb = await typed.watch(path);
    const json = await t.client.stream(path);
    try {
      expect(pb.contentType).toBe(`${PROTOBUF};stream=watch`);
      const created = await typed.create(NS, body('watched'));
      const current = created.object;
      await typed.update(`${NS}/watched/status`, { ...current, status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } });
      await typed.delete(`${NS}/watched`);
      for (const type of ['ADDED', 'MODIFIED', 'DELETED']) {
        const frame = await pb.next();
        const line = await json.next();
        expect(frame?.type).toBe(type);
        expect(frame).toEqual(line);
      }
      registry.bookmarkIntervalMs = 50;
      const now = (await t.client.get(NS)).json.metadata.resourceVersion;
      const bookmarks = await typed.watch(`${NS}?watch=true&resourceVersion=${now}&allowWatchBookmarks=true`);
      const bookmark = await bookmarks.next();
      // A Service with only metadata.resourceVersion; Go's protobuf always carries spec and status.
      expect(bookmark).toEqual({
        type: 'BOOKMARK',
        object: { kind: 'Service', apiVersion: 'v1', metadata: { resourceVersion: now, creationTimestamp: null }, spec: {}, status: { loadBalancer: {} } },
      });
      bookmarks.close();
    } finally {
      registry.bookmarkIntervalMs = previous;
      pb.close();
      json.close();
    }
  });

  it('watch from an expired resourceVersion: one ERROR frame with a 410 Status, then the end', async () => {
    const changeLog = t.server.app.get<ServiceChanges>(SERVICE_CHANGES);
    const spy = jest.spyOn(changeLog, 'oldestResumable').mockResolvedValue(Number.MAX_SAFE_INTEGER - 1);
    try {
      const head = (await t.client.get(NS)).json.metadata.resourceVersion;
      const watch = await typed.watch(`${NS}?watch=true&resourceVersion=${head}`);
      const error = await watch.next();
      expect(error?.type).toBe('ERROR');
      expect(error?.object).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
      expect(error?.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
      expect(await watch.next()).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
  });

  it('negotiation: protobuf only when asked first; 406 lists it; tables, discovery and history stay JSON', async () => {
    expect((await t.client.get(`${NS}/web`, { accept: `application/json,${PROTOBUF}` })).headers['content-type']).toMatch(/^application\/json/);
    expect((await t.client.get(`${NS}/web`, { accept: `application/json;q=0.5,${PROTOBUF}` })).headers['content-type']).toBe(PROTOBUF);
    expect((await t.client.get(`${NS}/web`, { accept: `${PROTOBUF}, */*` })).headers['content-type']).toBe(PROTOBUF);
    const none = await t.client.get(`${NS}/web`, { accept: 'text/plain' });
    expect(none.status).toBe(406);
    expect(none.headers['content-type']).toMatch(/^application\/json/);
    expect(none.json.message).toBe('406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    const table = await t.client.get(NS, { accept: `application/json;as=Table;v=v1;g=meta.k8s.io,${TYPED_CLIENT_ACCEPT}` });
    expect(table.json.kind).toBe('Table');
    expect((await t.client.get('/api/v1', { accept: TYPED_CLIENT_ACCEPT })).headers['content-type']).toMatch(/^application\/json/);
    expect((await t.client.get('/apis/history.svctrail.io/v1alpha1/changes', { accept: TYPED_CLIENT_ACCEPT })).headers['content-type']).toMatch(/^application\/json/);
  });

  it('time travel answers in protobuf too', async () => {
    const now = (await t.client.get(`${NS}/web`)).json;
    const rv = now.metadata.resourceVersion;
    const exact = await typed.get(`${NS}/web?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(exact.contentType).toBe(PROTOBUF);
    expect(exact.object).toEqual((await t.client.get(`${NS}/web?resourceVersion=${rv}&resourceVersionMatch=Exact`)).json);
    const list = await typed.get(`${NS}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(list.object).toEqual((await t.client.get(`${NS}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).json);
  });

  it('Events and EventLists in protobuf', async () => {
    const events = await typed.get('/api/v1/namespaces/pb/events');
    expect(events.contentType).toBe(PROTOBUF);
    const json = (await t.client.get('/api/v1/namespaces/pb/events')).json;
    expect(events.object).toEqual(json);
    expect(json.items.length).toBeGreaterThan(0);
    const one = await typed.get(`/api/v1/namespaces/pb/events/${json.items[0].metadata.name}`);
    expect(one.object).toEqual((await t.client.get(`/api/v1/namespaces/pb/events/${json.items[0].metadata.name}`)).json);
  });
});
