// Discovery (legacy and aggregated) and the core/v1 Events derived from the log.
import { describeEachBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

describe('discovery', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('legacy /api, /apis and /api/v1', async () => {
    expect((await t.client.get('/api')).json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const apis = (await t.client.get('/apis')).json;
    expect(apis).toMatchObject({ kind: 'APIGroupList', apiVersion: 'v1' });
    expect(apis.groups.map((g: any) => g.name)).toEqual(['events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'history.svctrail.io']);
    const v1 = (await t.client.get('/api/v1')).json;
    expect(v1.groupVersion).toBe('v1');
    const services = v1.resources.find((r: any) => r.name === 'services');
    expect(services).toMatchObject({ namespaced: true, kind: 'Service', shortNames: ['svc'], categories: ['all'] });
    expect(services.verbs).toEqual(expect.arrayContaining(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']));
    expect(v1.resources.map((r: any) => r.name)).toEqual(['services', 'services/status', 'events']);
  });

  it.each([
    ['v2', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json'],
    ['v2beta1', 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json'],
  ])('aggregated discovery %s when asked for, with its exact Content-Type', async (version, accept) => {
    const res = await t.client.get('/api', { accept });
    expect(res.headers['content-type']).toBe(`application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`);
    expect(res.headers.vary).toBe('Accept');
    expect(res.json.apiVersion).toBe(`apidiscovery.k8s.io/${version}`);
    const resources = res.json.items[0].versions[0].resources;
    expect(resources[0]).toMatchObject({
      resource: 'services',
      responseKind: { group: '', version: 'v1', kind: 'Service' },
      scope: 'Namespaced',
      shortNames: ['svc'],
      categories: ['all'],
      subresources: [{ subresource: 'status', verbs: ['get', 'patch', 'update'] }],
    });
    const groups = await t.client.get('/apis', { accept });
    expect(groups.json).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {} });
    expect(groups.json.items.map((g: any) => g.metadata.name)).toEqual(['events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'history.svctrail.io']);
  });
});

describeEachBackend('core/v1 Events from the history', (backend) => {
  let t: TestServer;
  let uid: string;
  const NS = '/api/v1/namespaces/ev/services';
  beforeAll(async () => {
    t = await backend.start();
    const created = await t.client.post(NS, { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    uid = created.json.metadata.uid;
    const withIngress = await t.client.put(
      `${NS}/web/status`,
      {
        ...created.json,
        status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] }, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Up', message: 'serving' }] },
      },
      { headers: { 'user-agent': 'metallb-controller/v0.14' } },
    );
    await t.client.put(`${NS}/web/status`, { ...withIngress.json, status: { loadBalancer: { ingress: [{ ip: '203.0.113.8' }] } } });
    await t.client.post('/api/v1/namespaces/other/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
  });
  afterAll(async () => t.stop());

  it('lists an Event per recorded change, with the actor in the message', async () => {
    const res = await t.client.get('/api/v1/namespaces/ev/events');
    expect(res.json.kind).toBe('EventList');
    const reasons = res.json.items.map((e: any) => e.reason);
    expect(reasons).toEqual(['Created', 'IngressAssigned', 'ConditionChanged', 'IngressChanged', 'ConditionRemoved']);
    const assigned = res.json.items[1];
    expect(assigned.message).toBe('Load-balancer ingress assigned: 203.0.113.7 by admin via metallb-controller');
    expect(assigned.involvedObject).toMatchObject({ kind: 'Service', namespace: 'ev', name: 'web', uid, apiVersion: 'v1' });
    expect(res.json.items[3].message).toBe('Load-balancer ingress changed from 203.0.113.7 to 203.0.113.8 by admin');
    expect(assigned.kind).toBeUndefined();
  });

  it('filters by the field selector kubectl describe sends', async () => {
    const selector = encodeURIComponent(`involvedObject.name=web,involvedObject.namespace=ev,involvedObject.kind=Service,involvedObject.uid=${uid}`);
    const res = await t.client.get(`/api/v1/namespaces/ev/events?fieldSelector=${selector}&limit=500`);
    expect(res.json.items).toHaveLength(5);
    const all = await t.client.get(`/api/v1/events?fieldSelector=${encodeURIComponent('involvedObject.name=web,reason=Created')}`);
    expect(all.json.items.map((e: any) => e.metadata.namespace)).toEqual(['ev', 'other']);
    const bad = await t.client.get('/api/v1/events?fieldSelector=spec.x%3Dy');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('field label not supported: spec.x');
  });

  it('pages with limit/continue and serves single Events by name', async () => {
    const first = await t.client.get('/api/v1/namespaces/ev/events?limit=2');
    expect(first.json.items).toHaveLength(2);
    const rest = await t.client.get(`/api/v1/namespaces/ev/events?limit=10&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(rest.json.items).toHaveLength(3);
    const one = await t.client.get(`/api/v1/namespaces/ev/events/${first.json.items[1].metadata.name}`);
    expect(one.json).toMatchObject({ kind: 'Event', apiVersion: 'v1', reason: 'IngressAssigned' });
    expect((await t.client.get('/api/v1/namespaces/ev/events/web.00000000000fffff')).status).toBe(404);
  });

  it('watches Events: replay from a resourceVersion, then live', async () => {
    const watch = await t.client.stream('/api/v1/namespaces/ev/events?watch=true&resourceVersion=1');
    const replay = await watch.take(5);
    expect(replay.map((e) => e.object.reason)).toEqual(['Created', 'IngressAssigned', 'ConditionChanged', 'IngressChanged', 'ConditionRemoved']);
    expect(replay.every((e) => e.type === 'ADDED' && e.object.kind === 'Event')).toBe(true);
    await t.client.delete(`${NS}/web`);
    expect(await watch.next()).toMatchObject({ type: 'ADDED', object: { reason: 'Deleted', involvedObject: { uid } } });
    watch.close();
  });
});
