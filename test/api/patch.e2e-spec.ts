// PATCH over real HTTPS (object-semantics.md §6, §8 cases 60-68): the three patch types on the
// main resource and /status, kube-apiserver's error mapping, preconditions, no-ops and dry runs.
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const NS = '/api/v1/namespaces/patch/services';
const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';

describeEachBackend('PATCH', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
  });
  afterAll(async () => t.stop());

  const create = async (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => {
    const res = await t.client.post(NS, {
      metadata: { name, ...metadata },
      spec: {
        selector: { app: 'web' },
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443 },
        ],
        ...spec,
      },
    });
    expect(res.status).toBe(201);
    return res.json;
  };
  const patch = (path: string, body: unknown, contentType: string) => t.client.request('PATCH', path, { body: typeof body === 'string' ? body : JSON.stringify(body), contentType });

  it('60: application/json is 415', async () => {
    await create('p60');
    const res = await patch(`${NS}/p60`, {}, 'application/json');
    expect(res.status).toBe(415);
    expect(res.text).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"415: Unsupported Media Type","reason":"UnsupportedMediaType","details":{},"code":415}');
  });

  it('62: strategic merge patch deletes a port by merge key and reorders with $setElementOrder', async () => {
    await create('p62');
    const deleted = await patch(`${NS}/p62`, { spec: { ports: [{ $patch: 'delete', port: 443 }] } }, SMP);
    expect(deleted.status).toBe(200);
    expect(deleted.json.spec.ports.map((p: any) => p.port)).toEqual([80]);
    await patch(`${NS}/p62`, { spec: { ports: [{ name: 'https', port: 443 }] } }, SMP);
    const reordered = await patch(`${NS}/p62`, { spec: { '$setElementOrder/ports': [{ port: 443 }, { port: 80 }] } }, SMP);
    expect(reordered.json.spec.ports.map((p: any) => p.port)).toEqual([443, 80]);
  });

  it('63: selectors merge under SMP; merge patch null removes a key', async () => {
    await create('p63');
    const merged = await patch(`${NS}/p63`, { spec: { selector: { tier: 'web' } } }, SMP);
    expect(merged.json.spec.selector).toEqual({ app: 'web', tier: 'web' });
    const removed = await patch(`${NS}/p63`, { spec: { selector: { app: null } } }, MERGE);
    expect(removed.json.spec.selector).toEqual({ tier: 'web' });
  });

  it('66: undecodable patches are 400', async () => {
    await create('p66');
    const jsonPatch = await patch(`${NS}/p66`, {}, JSON_PATCH);
    expect(jsonPatch.status).toBe(400);
    expect(jsonPatch.json.message.startsWith('error decoding patch: ')).toBe(true);
    const merge = await patch(`${NS}/p66`, '{"spec":', MERGE);
    expect(merge.status).toBe(400);
    expect(merge.json.message.startsWith('error decoding patch: ')).toBe(true);
  });

  it('a failing JSON patch op is the generic 422 and changes nothing', async () => {
    const created = await create('pjson');
    const res = await patch(
      `${NS}/pjson`,
      [
        { op: 'test', path: '/spec/type', value: 'NodePort' },
        { op: 'replace', path: '/spec/type', value: 'NodePort' },
      ],
      JSON_PATCH,
    );
    expect(res.status).toBe(422);
    expect(res.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}',
    );
    expect((await t.client.get(`${NS}/pjson`)).json).toEqual(created);
  });

  it('67: a stale resourceVersion inside a merge patch is 409', async () => {
    await create('p67');
    const res = await patch(`${NS}/p67`, { metadata: { resourceVersion: '1' }, spec: { type: 'NodePort' } }, MERGE);
    expect(res.status).toBe(409);
    expect(res.json.reason).toBe('Conflict');
  });

  it('68: patching a missing Service is 404; server-side apply needs apiVersion and kind', async () => {
    const missing = await patch(`${NS}/nope`, { spec: {} }, MERGE);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('services "nope" not found');
    await create('p68');
    const apply = await t.client.request('PATCH', `${NS}/p68?fieldManager=x`, { body: 'spec: {}', contentType: 'application/apply-patch+yaml' });
    expect(apply.status).toBe(400);
    expect(apply.json.message).toBe('invalid object type: /, Kind=');
  });

  it('a no-op patch keeps the resourceVersion; dryRun changes nothing', async () => {
    const created = await create('pnoop');
    const same = await patch(`${NS}/pnoop`, { spec: { selector: { app: 'web' } } }, SMP);
    expect(same.json.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const dry = await patch(`${NS}/pnoop?dryRun=All`, { metadata: { labels: { x: 'y' } } }, MERGE);
    expect(dry.json.metadata.labels).toEqual({ x: 'y' });
    expect((await t.client.get(`${NS}/pnoop`)).json).toEqual(created);
  });

  it('/status: the load-balancer controller flow (finalizer, ingress with ipMode defaulted, clear, delete)', async () => {
    await create('lb', { type: 'LoadBalancer' });
    const finalizer = await patch(`${NS}/lb/status`, { metadata: { finalizers: ['service.kubernetes.io/load-balancer-cleanup'] } }, SMP);
    expect(finalizer.json.metadata.finalizers).toEqual(['service.kubernetes.io/load-balancer-cleanup']);
    const published = await patch(`${NS}/lb/status`, { status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } }, SMP);
    expect(published.json.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.7', ipMode: 'VIP' }]);
    const specIgnored = await patch(`${NS}/lb/status`, { spec: { type: 'ClusterIP' } }, MERGE);
    expect(specIgnored.json.spec.type).toBe('LoadBalancer');
    const statusIgnored = await patch(`${NS}/lb`, { status: { loadBalancer: { ingress: null } } }, MERGE);
    expect(statusIgnored.json.status.loadBalancer.ingress).toHaveLength(1);
    const deleting = await t.client.delete(`${NS}/lb`);
    expect(deleting.json.metadata.deletionTimestamp).toBeTruthy();
    const cleared = await patch(`${NS}/lb/status`, { status: { loadBalancer: { ingress: null } } }, SMP);
    expect(cleared.json.status.loadBalancer).toEqual({});
    const removed = await patch(`${NS}/lb/status`, { metadata: { $deleteFromPrimitiveList: undefined, '$deleteFromPrimitiveList/finalizers': ['service.kubernetes.io/load-balancer-cleanup'] } }, SMP);
    expect(removed.status).toBe(200);
    expect((await t.client.get(`${NS}/lb`)).status).toBe(404);
  });

  it('a patched object that does not decode is a 422 at field patch', async () => {
    await create('pdecode');
    const res = await patch(`${NS}/pdecode`, { spec: { ports: [{ port: 'eighty' }] } }, MERGE);
    expect(res.status).toBe(422);
    expect(res.json.message.startsWith(' "" is invalid: patch: Invalid value: ')).toBe(true);
    expect(res.json.details.causes[0].field).toBe('patch');
  });

  it('a patch that changes an immutable field fails validation', async () => {
    await create('pimm', { clusterIP: '10.96.77.77' });
    const res = await patch(`${NS}/pimm`, { spec: { clusterIP: '10.96.77.78', clusterIPs: ['10.96.77.78'] } }, MERGE);
    expect(res.status).toBe(422);
    expect(res.json.message).toContain('may not change once set');
  });

  it('unknown fields: Warning by default, 422 with fieldValidation=Strict', async () => {
    await create('punk');
    const warn = await patch(`${NS}/punk`, { spec: { foo: 1 } }, MERGE);
    expect(warn.status).toBe(200);
    expect(warn.headers.warning).toBe('299 - "unknown field \\"spec.foo\\""');
    const strict = await patch(`${NS}/punk?fieldValidation=Strict`, { spec: { foo: 1 } }, MERGE);
    expect(strict.status).toBe(422);
    expect(strict.json.message).toContain('strict decoding error: unknown field "spec.foo"');
  });

  it('more than 10000 JSON patch operations is 413', async () => {
    await create('pbig');
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'Service' }));
    const res = await patch(`${NS}/pbig`, ops, JSON_PATCH);
    expect(res.status).toBe(413);
    expect(res.json.message).toBe('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
  });
});
