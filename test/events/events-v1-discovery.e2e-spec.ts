// Discovery of events.k8s.io as kube-apiserver serves it: first of the built-in groups svctrail
// serves in /apis (group priority 17750, before authentication.k8s.io's 17700), its APIGroup and
// APIResourceList, and its entry in aggregated discovery v2 and v2beta1, which deprecated watch
// paths (/apis/events.k8s.io/v1/watch/...) are resolved against.
import { startTestServer, type TestServer } from '../helpers/test-server';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('events.k8s.io discovery', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('given legacy discovery, when /apis is read, then events.k8s.io comes first with v1 preferred', async () => {
    const apis = (await t.client.get('/apis')).json;
    expect(apis.groups.map((g: any) => g.name)).toEqual(['events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'history.svctrail.io']);
    expect(apis.groups[0]).toEqual({ name: 'events.k8s.io', versions: [{ groupVersion: 'events.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'events.k8s.io/v1', version: 'v1' } });
  });

  it('given the group and version documents, when read, then the APIGroup and the APIResourceList of events', async () => {
    expect((await t.client.get('/apis/events.k8s.io')).json).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'events.k8s.io',
      versions: [{ groupVersion: 'events.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'events.k8s.io/v1', version: 'v1' },
    });
    expect((await t.client.get('/apis/events.k8s.io/v1')).json).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'events.k8s.io/v1',
      resources: [{ name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: VERBS, shortNames: ['ev'] }],
    });
    // v1beta1 is no longer served (removed in 1.25).
    expect((await t.client.get('/apis/events.k8s.io/v1beta1')).status).toBe(404);
  });

  it.each(['v2', 'v2beta1'])('given aggregated discovery %s, when /apis is read, then events.k8s.io is its first group', async (version) => {
    const res = await t.client.get('/apis', { accept: `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList,application/json` });
    expect(res.headers['content-type']).toBe(`application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`);
    expect(res.json.items.map((g: any) => g.metadata.name)).toEqual(['events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'history.svctrail.io']);
    expect(res.json.items[0]).toEqual({
      metadata: { name: 'events.k8s.io', creationTimestamp: null },
      versions: [
        {
          version: 'v1',
          resources: [{ resource: 'events', responseKind: { group: 'events.k8s.io', version: 'v1', kind: 'Event' }, scope: 'Namespaced', singularResource: 'event', verbs: VERBS, shortNames: ['ev'] }],
          freshness: 'Current',
        },
      ],
    });
  });
});
