// Server-side apply over HTTPS (server-side-apply.md §3): create on apply, ownership and conflicts
// with kube-apiserver's texts, force, pruning, dry run, /status, and the flows of the tools that
// apply for real (Helm 4, Flux's kustomize-controller, a status-condition controller).
import { describeEachBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

const NS = '/api/v1/namespaces/ssa/services';
const APPLY = 'application/apply-patch+yaml';

const managers = (svc: any): string[] => (svc.metadata.managedFields ?? []).map((e: any) => `${e.manager}/${e.operation}${e.subresource ? '/' + e.subresource : ''}`);

describeEachBackend('server-side apply', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
  });
  afterAll(async () => t.stop());

  const apply = (path: string, body: object | string, query = 'fieldManager=kubectl') =>
    t.client.request('PATCH', `${path}?${query}`, { body: typeof body === 'string' ? body : JSON.stringify(body), contentType: APPLY });
  const service = (name: string, spec: object, labels: Record<string, string> = { app: name }) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels },
    spec,
  });

  it('creates on apply (201), owning exactly what was applied; applying again is a no-op', async () => {
    const yaml = `apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {app: web}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
`;
    const created = await apply(`${NS}/web`, yaml);
    expect(created.status).toBe(201);
    expect(created.json.metadata.managedFields).toEqual([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'v1',
        time: created.json.metadata.creationTimestamp,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:targetPort': {} } }, 'f:selector': {} },
        },
      },
    ]);
    // A port applied without protocol is keyed as TCP and defaulted to it.
    expect(created.json.spec.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }]);
    const again = await apply(`${NS}/web`, yaml);
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  it('applying again a second later, with an empty labels map, is still a no-op (was a 500)', async () => {
    // The repeat gets a newer managedFields time; restoring the stored one must give the stored
    // bytes, or the write path's replay guard fails the request.
    const body = service('empty-labels', { type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] }, {});
    const created = await apply(`${NS}/empty-labels`, body);
    expect(created.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await apply(`${NS}/empty-labels`, body);
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(again.json.metadata.managedFields).toEqual(created.json.metadata.managedFields);
  });

  it('fieldManager is required, force only for apply, /status of a missing Service is 404', async () => {
    const noManager = await apply(`${NS}/web`, service('web', {}), '');
    expect(noManager.status).toBe(422);
    expect(noManager.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const force = await t.client.request('PATCH', `${NS}/web?force=true`, { body: '{}', contentType: 'application/merge-patch+json' });
    expect(force.status).toBe(422);
    expect(force.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const status = await apply(`${NS}/nope/status`, service('nope', {}));
    expect(status.status).toBe(404);
  });

  it('conflicts with another manager: 409 with kube-apiserver’s message and causes; force takes over', async () => {
    await t.client.post(NS, { metadata: { name: 'made' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } }, { headers: { 'user-agent': 'kubectl-create/v1.33.1' } });
    const config = service('made', { type: 'ClusterIP', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] }, {});
    const conflict = await apply(`${NS}/made`, config);
    expect(conflict.status).toBe(409);
    expect(conflict.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 2 conflicts: conflicts with "kubectl-create" using v1:\n- .spec.sessionAffinity\n- .spec.type',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using v1', field: '.spec.sessionAffinity' },
          { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using v1', field: '.spec.type' },
        ],
      },
      code: 409,
    });
    const forced = await apply(`${NS}/made`, config, 'fieldManager=kubectl&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.spec.type).toBe('ClusterIP');
    expect(managers(forced.json)).toEqual(['kubectl/Apply', 'kubectl-create/Update']);
    const owned = forced.json.metadata.managedFields.find((e: any) => e.manager === 'kubectl-create').fieldsV1;
    expect(owned['f:spec']['f:type']).toBeUndefined();
  });

  it('prunes a label and a port the manager stopped applying; dryRun=All stores nothing', async () => {
    const full = service(
      'prune',
      {
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
        ],
      },
      { app: 'prune', keep: 'me' },
    );
    await apply(`${NS}/prune`, full);
    const dry = await apply(`${NS}/prune`, service('prune', { ports: [{ name: 'a', port: 80 }] }, { app: 'prune' }), 'fieldManager=kubectl&dryRun=All');
    expect(dry.status).toBe(200);
    expect(dry.json.metadata.labels).toEqual({ app: 'prune' });
    expect((await t.client.get(`${NS}/prune`)).json.metadata.labels).toEqual({ app: 'prune', keep: 'me' });
    const pruned = await apply(`${NS}/prune`, service('prune', { ports: [{ name: 'a', port: 80 }] }, { app: 'prune' }));
    expect(pruned.json.metadata.labels).toEqual({ app: 'prune' });
    expect(pruned.json.spec.ports.map((p: any) => p.port)).toEqual([80]);
  });

  it('Helm 4-like install and upgrade (manager helm, JSON body)', async () => {
    const release = (replicasLabel: string) =>
      service('chart', { type: 'ClusterIP', selector: { app: 'chart' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] }, { app: 'chart', 'helm.sh/chart': replicasLabel });
    const install = await apply(`${NS}/chart`, release('chart-1.0.0'), 'fieldManager=helm');
    expect(install.status).toBe(201);
    const upgrade = await apply(`${NS}/chart`, release('chart-1.1.0'), 'fieldManager=helm');
    expect(upgrade.status).toBe(200);
    expect(upgrade.json.metadata.labels['helm.sh/chart']).toBe('chart-1.1.0');
    expect(managers(upgrade.json)).toEqual(['helm/Apply']);
  });

  it('Flux-like: a dry run first, then a forced apply, and the [{}] strip of kubectl entries', async () => {
    await t.client.post(NS, { metadata: { name: 'flux' }, spec: { ports: [{ port: 80 }] } }, { headers: { 'user-agent': 'kubectl-client-side-apply/v1.33' } });
    const config = service('flux', { ports: [{ port: 80 }], sessionAffinity: 'ClientIP' }, { 'kustomize.toolkit.fluxcd.io/name': 'apps' });
    const dry = await apply(`${NS}/flux`, config, 'fieldManager=kustomize-controller&force=true&dryRun=All');
    expect(dry.status).toBe(200);
    const forced = await apply(`${NS}/flux`, config, 'fieldManager=kustomize-controller&force=true');
    expect(managers(forced.json)).toEqual(['kustomize-controller/Apply', 'kubectl-client-side-apply/Update']);
    // Flux removes the kubectl entries: it sets managedFields to [{}] and applies again.
    const stripped = await t.client.request('PATCH', `${NS}/flux`, {
      contentType: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }],
    });
    expect(stripped.status).toBe(200);
    expect(stripped.json.metadata.managedFields).toBeUndefined();
    const reapplied = await apply(`${NS}/flux`, config, 'fieldManager=kustomize-controller&force=true');
    expect(managers(reapplied.json)).toEqual(['kustomize-controller/Apply', 'before-first-apply/Update']);
  });

  it('a controller applies status.conditions with force while another manager writes the ingress: both owners recorded', async () => {
    const lb = await t.client.post(NS, { metadata: { name: 'cond' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } }, { headers: { 'user-agent': 'kubectl-create/v1.33' } });
    const ingress = await t.client.put(`${NS}/cond/status?fieldManager=metallb-controller`, { ...lb.json, status: { loadBalancer: { ingress: [{ ip: '203.0.113.20' }] } } });
    expect(ingress.status).toBe(200);
    const condition = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'cond' },
      status: { conditions: [{ type: 'LoadBalancerReady', status: 'True', reason: 'Provisioned', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    };
    const applied = await apply(`${NS}/cond/status`, condition, 'fieldManager=cloud-controller&force=true');
    expect(applied.status).toBe(200);
    expect(applied.json.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.20', ipMode: 'VIP' }]);
    expect(applied.json.status.conditions[0].type).toBe('LoadBalancerReady');
    expect(managers(applied.json)).toEqual(['cloud-controller/Apply/status', 'kubectl-create/Update', 'metallb-controller/Update/status']);
    const cloud = applied.json.metadata.managedFields.find((e: any) => e.manager === 'cloud-controller').fieldsV1;
    // An Apply entry owns the applied list items, not the list itself.
    expect(Object.keys(cloud['f:status']['f:conditions'])).toEqual(['k:{"type":"LoadBalancerReady"}']);
    // The ownership history has both: MetalLB holds the ingress, the cloud controller the condition.
    const owners = (await t.client.get('/apis/history.svctrail.io/v1alpha1/namespaces/ssa/services/cond/fieldownerships?field=.status')).json.items;
    expect(owners.map((o: any) => [o.field, o.manager, o.operation, o.to?.reason ?? 'owned'])).toEqual([
      ['.status.loadBalancer.ingress', 'metallb-controller', 'Update', 'owned'],
      ['.status.conditions[type="LoadBalancerReady"]', 'cloud-controller', 'Apply', 'owned'],
      ['.status.conditions[type="LoadBalancerReady"].lastTransitionTime', 'cloud-controller', 'Apply', 'owned'],
      ['.status.conditions[type="LoadBalancerReady"].message', 'cloud-controller', 'Apply', 'owned'],
      ['.status.conditions[type="LoadBalancerReady"].reason', 'cloud-controller', 'Apply', 'owned'],
      ['.status.conditions[type="LoadBalancerReady"].status', 'cloud-controller', 'Apply', 'owned'],
      ['.status.conditions[type="LoadBalancerReady"].type', 'cloud-controller', 'Apply', 'owned'],
    ]);
  });

  it('bad apply bodies are Status answers', async () => {
    const notYaml = await apply(`${NS}/web`, 'spec: [1, 2');
    expect(notYaml.status).toBe(400);
    expect(notYaml.json.message).toMatch(/^error decoding YAML: /);
    const wrongKind = await apply(`${NS}/web`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json.message).toBe('invalid object type: /v1, Kind=Pod');
    const withManagedFields = await apply(`${NS}/web`, { ...service('web', {}), metadata: { name: 'web', managedFields: [{ manager: 'x' }] } });
    expect(withManagedFields.status).toBe(400);
    expect(withManagedFields.json.message).toBe('metadata.managedFields must be nil');
  });
});

describe('who owned each field, over time (fieldownerships)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('answers which controller owned .status.loadBalancer.ingress at a time, and who took it over, forced or not', async () => {
    const ns = '/api/v1/namespaces/own/services';
    const created = await t.client.post(ns, { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } }, { headers: { 'user-agent': 'kubectl-create/v1.33' } });
    const first = await t.client.put(`${ns}/web/status?fieldManager=metallb-controller`, { ...created.json, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } });
    const config = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, status: { loadBalancer: { ingress: [{ ip: '203.0.113.8' }] } } };
    const conflict = await t.client.request('PATCH', `${ns}/web/status?fieldManager=kube-vip`, { body: JSON.stringify(config), contentType: APPLY });
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "metallb-controller" with subresource "status" using v1: .status.loadBalancer.ingress');
    const forced = await t.client.request('PATCH', `${ns}/web/status?fieldManager=kube-vip&force=true`, { body: JSON.stringify(config), contentType: APPLY });
    expect(forced.status).toBe(200);

    const base = '/apis/history.svctrail.io/v1alpha1/namespaces/own/services/web/fieldownerships';
    const ingress = (await t.client.get(`${base}?field=.status.loadBalancer.ingress`)).json;
    expect(ingress.kind).toBe('FieldOwnershipList');
    expect(ingress.items.map((i: any) => [i.manager, i.operation, i.subresource, i.from.resourceVersion, i.to?.reason, i.to?.forced])).toEqual([
      ['metallb-controller', 'Update', 'status', Number(first.json.metadata.resourceVersion), 'takenOver', true],
      ['kube-vip', 'Apply', 'status', Number(forced.json.metadata.resourceVersion), undefined, undefined],
    ]);
    expect(ingress.items[0].to.takenOverBy).toEqual([{ manager: 'kube-vip', operation: 'Apply', subresource: 'status' }]);
    // At the moment metallb set it, metallb owned it; now kube-vip does.
    const atTime = async (time: string) => (await t.client.get(`${base}?field=.status.loadBalancer.ingress&at=${encodeURIComponent(time)}`)).json.items.map((i: any) => i.manager);
    expect(await atTime(ingress.items[0].from.time)).toEqual(['metallb-controller']);
    expect(await atTime(ingress.items[1].from.time)).toEqual(['kube-vip']);
    expect(await atTime('2000-01-01T00:00:00Z')).toEqual([]);
    const byManager = (await t.client.get(`${base}?manager=kubectl-create`)).json.items;
    expect(byManager.length).toBeGreaterThan(3);
    expect(byManager.every((i: any) => i.manager === 'kubectl-create' && !i.to)).toBe(true);
    const paged = (await t.client.get(`${base}?limit=2`)).json;
    expect(paged.items).toHaveLength(2);
    const next = (await t.client.get(`${base}?limit=2&continue=${encodeURIComponent(paged.metadata.continue)}`)).json;
    expect(next.items[0].metadata.name).not.toBe(paged.items[0].metadata.name);
    const bad = await t.client.get(`${base}?at=yesterday`);
    expect(bad.status).toBe(400);
  });
});
