// metadata.managedFields on every write, as kube-apiserver records them (server-side-apply.md §2):
// the creator owns what decoding defaulted but not what allocation filled in, status writers get
// `subresource: status`, no-ops stay no-ops, `[{}]` clears, a JSON patch may replace them, and
// they come back in GET, LIST, watch, protobuf and time travel.
import { PROTOBUF, TypedClient } from '../helpers/protobuf-client';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const NS = '/api/v1/namespaces/mf/services';

describeEachBackend('managedFields on every write', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
  });
  afterAll(async () => t.stop());

  const as = (agent: string) => ({ headers: { 'user-agent': agent } });

  it('a create by curl owns the defaults filled in at decode, not the allocated fields (object-semantics §1.7)', async () => {
    const created = await t.client.post(NS, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } }, as('curl/8.5.0'));
    expect(created.status).toBe(201);
    const meta = created.json.metadata;
    expect(meta.managedFields).toEqual([
      {
        manager: 'curl',
        operation: 'Update',
        apiVersion: 'v1',
        time: meta.creationTimestamp,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:internalTrafficPolicy': {},
            'f:ports': { '.': {}, 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
            'f:selector': {},
            'f:sessionAffinity': {},
            'f:type': {},
          },
        },
      },
    ]);
    // Byte for byte as kube-apiserver writes the entry.
    expect(created.text).toContain(
      '"fieldsV1":{"f:spec":{"f:internalTrafficPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}}]},',
    );
  });

  it('status writers get their own entry with subresource status; a repeated write is a no-op', async () => {
    const current = (await t.client.get(`${NS}/web`)).json;
    const lb = await t.client.post(NS, { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } }, as('kubectl-create/v1.33'));
    const withIngress = { ...lb.json, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } };
    const status = await t.client.put(`${NS}/lb/status?fieldManager=metallb-controller`, withIngress);
    expect(status.status).toBe(200);
    expect(status.json.metadata.managedFields.map((e: any) => [e.manager, e.subresource ?? ''])).toEqual([
      ['kubectl-create', ''],
      ['metallb-controller', 'status'],
    ]);
    expect(status.json.metadata.managedFields[1].fieldsV1).toEqual({ 'f:status': { 'f:loadBalancer': { 'f:ingress': {} } } });
    const again = await t.client.put(`${NS}/lb/status?fieldManager=metallb-controller`, status.json);
    expect(again.json.metadata.resourceVersion).toBe(status.json.metadata.resourceVersion);
    expect(again.json.metadata.managedFields).toEqual(status.json.metadata.managedFields);
    expect(current.metadata.managedFields).toHaveLength(1);
  });

  it('an update takes over the fields it changes from their previous owner', async () => {
    const current = (await t.client.get(`${NS}/web`)).json;
    const changed = await t.client.put(`${NS}/web?fieldManager=editor`, { ...current, spec: { ...current.spec, sessionAffinity: 'ClientIP' } });
    expect(changed.status).toBe(200);
    const entries = changed.json.metadata.managedFields;
    expect(entries.map((e: any) => e.manager)).toEqual(['curl', 'editor']);
    expect(entries[0].fieldsV1['f:spec']['f:sessionAffinity']).toBeUndefined();
    expect(entries[1].fieldsV1['f:spec']['f:sessionAffinity']).toEqual({});
  });

  it('a JSON patch may replace managedFields; [{}] clears them all', async () => {
    const current = (await t.client.get(`${NS}/web`)).json;
    const replaced = await t.client.request('PATCH', `${NS}/web`, {
      contentType: 'application/json-patch+json',
      body: [
        { op: 'test', path: '/metadata/resourceVersion', value: current.metadata.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: [current.metadata.managedFields[1]] },
      ],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json.metadata.managedFields.map((e: any) => e.manager)).toEqual(['editor']);
    const cleared = await t.client.put(`${NS}/web`, { ...replaced.json, metadata: { ...replaced.json.metadata, managedFields: [{}] } });
    expect(cleared.status).toBe(200);
    expect(cleared.json.metadata.managedFields).toBeUndefined();
    // Untracked from now on (like an object created before field tracking) until an apply.
    const later = await t.client.put(`${NS}/web?fieldManager=editor`, { ...cleared.json, metadata: { ...cleared.json.metadata, labels: { a: 'b' } } });
    expect(later.json.metadata.managedFields).toBeUndefined();
  });

  it('at most 10 Update entries: older ones merge into ancient-changes', async () => {
    let svc = (await t.client.post(NS, { metadata: { name: 'many' }, spec: { ports: [{ port: 80 }] } }, as('creator/1'))).json;
    for (let i = 0; i < 11; i++) {
      svc = (await t.client.put(`${NS}/many?fieldManager=m${String(i).padStart(2, '0')}`, { ...svc, metadata: { ...svc.metadata, labels: { ...svc.metadata.labels, [`l${i}`]: 'x' } } })).json;
    }
    const managers = svc.metadata.managedFields.map((e: any) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers).toContain('ancient-changes');
    expect(managers).toContain('m10');
  });

  it('GET, LIST, protobuf and time travel return them as they were', async () => {
    const now = (await t.client.get(`${NS}/lb`)).json;
    const typed = await new TypedClient(t.client).get(`${NS}/lb`);
    expect(typed.contentType).toBe(PROTOBUF);
    expect(typed.object.metadata.managedFields).toEqual(now.metadata.managedFields);
    const listed = (await t.client.get(NS)).json.items.find((s: any) => s.metadata.name === 'lb');
    expect(listed.metadata.managedFields).toEqual(now.metadata.managedFields);
    const created = (await t.client.get(`/apis/history.svctrail.io/v1alpha1/namespaces/mf/services/lb/changes`)).json.items[0];
    const then = await t.client.get(`${NS}/lb?resourceVersion=${created.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(then.json.metadata.managedFields.map((e: any) => e.manager)).toEqual(['kubectl-create']);
    // Ownership moves are in the log, but make no core/v1 Event of their own.
    const reasons = (await t.client.get('/api/v1/namespaces/mf/events')).json.items.map((e: any) => e.reason);
    expect(reasons).not.toContain('ManagedFieldsChanged');
    expect(JSON.stringify((await t.client.get('/apis/history.svctrail.io/v1alpha1/namespaces/mf/changes')).json)).toContain('ServiceManagedFieldsChanged');
  });
});
