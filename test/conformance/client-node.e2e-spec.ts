// @kubernetes/client-node 1.4.0, unchanged, against the real HTTPS server: typed CRUD on
// Services and their status, error codes, and an informer that sees add/update/delete, resumes
// its watch after the server closes the stream, and relists after a 410.
import * as k8s from '@kubernetes/client-node';
import { SERVICE_CHANGES } from '../../src/store/ports/service-changes';
import type { ServiceChanges } from '../../src/store/ports/service-changes';
import { WatchRegistry } from '../../src/watch/watch-registry';
import { kubeConfigFor } from '../helpers/client-node';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const namespace = 'cn';
// Generous: the bound only decides how long a failing test waits, on a loaded machine too.
const waitFor = async (check: () => boolean, ms = 30_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describeEachBackend('@kubernetes/client-node', (backend) => {
  let t: TestServer;
  let api: k8s.CoreV1Api;
  let kc: k8s.KubeConfig;

  beforeAll(async () => {
    t = await backend.start();
    kc = kubeConfigFor(t);
    api = kc.makeApiClient(k8s.CoreV1Api);
  });
  afterAll(async () => t.stop());

  it('creates, reads, replaces status, lists and deletes', async () => {
    const created = await api.createNamespacedService({
      namespace,
      body: { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } },
    });
    expect(created.spec?.clusterIP).toMatch(/^10\./);
    const read = await api.readNamespacedServiceStatus({ name: 'web', namespace });
    read.status = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } };
    // client-node re-serialises timestamps with milliseconds; the server must take them.
    const replaced = await api.replaceNamespacedServiceStatus({ name: 'web', namespace, body: read });
    expect(replaced.status?.loadBalancer?.ingress).toEqual([{ ip: '203.0.113.7', ipMode: 'VIP' }]);
    expect(replaced.metadata?.creationTimestamp).toEqual(created.metadata?.creationTimestamp);
    const list = await api.listNamespacedService({ namespace });
    expect(list.items.map((s) => s.metadata?.name)).toEqual(['web']);
    expect(list.metadata?.resourceVersion).toBeTruthy();
    const all = await api.listServiceForAllNamespaces();
    expect(all.items.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`)).toEqual(expect.arrayContaining(['cn/web', 'default/kubernetes']));
    const deleted = await api.deleteNamespacedService({ name: 'web', namespace });
    expect(deleted.metadata?.name).toBe('web');
  });

  it('patches status with all three patch types (json-patch is the default)', async () => {
    const created = await api.createNamespacedService({ namespace, body: { metadata: { name: 'patched' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } } });
    const merged = await api.patchNamespacedServiceStatus(
      { name: 'patched', namespace, body: { status: { loadBalancer: { ingress: [{ ip: '4.4.4.4' }] } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(merged.status?.loadBalancer?.ingress?.[0]).toEqual({ ip: '4.4.4.4', ipMode: 'VIP' });
    const jsonPatched = await api.patchNamespacedServiceStatus({
      name: 'patched',
      namespace,
      body: [{ op: 'replace', path: '/status/loadBalancer/ingress/0/ip', value: '2.2.2.2' }],
    });
    expect(jsonPatched.status?.loadBalancer?.ingress?.[0]?.ip).toBe('2.2.2.2');
    const strategic = await api.patchNamespacedServiceStatus(
      { name: 'patched', namespace, body: { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: '', lastTransitionTime: new Date('2026-01-01T00:00:00Z') }] } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(strategic.status?.conditions?.map((c) => c.type)).toEqual(['Ready']);
    expect(strategic.status?.loadBalancer?.ingress?.[0]?.ip).toBe('2.2.2.2');
    expect(Number(strategic.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion));
    const wrongBody = await api.patchNamespacedServiceStatus({ name: 'patched', namespace, body: { status: {} } }).catch((e) => e);
    expect(wrongBody.code).toBeGreaterThanOrEqual(400);
    expect(wrongBody.code).toBeLessThan(500);
  });

  it('reports 404 and 409 as ApiException codes with the Status body', async () => {
    const missing = await api.readNamespacedService({ name: 'nope', namespace }).catch((e) => e);
    expect(missing.code).toBe(404);
    expect(JSON.parse(missing.body).message).toBe('services "nope" not found');
    const created = await api.createNamespacedService({ namespace, body: { metadata: { name: 'c409' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } } });
    created.metadata!.resourceVersion = '1';
    const conflict = await api.replaceNamespacedServiceStatus({ name: 'c409', namespace, body: created }).catch((e) => e);
    expect(conflict.code).toBe(409);
    expect(JSON.parse(conflict.body).reason).toBe('Conflict');
  });

  it('an informer sees add/update/delete, resumes after the server closes the stream, and relists after 410', async () => {
    const ns = 'informer';
    const seen: string[] = [];
    const errors: unknown[] = [];
    const listCalls: number[] = [];
    const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${ns}/services`, () => {
      listCalls.push(Date.now());
      return api.listNamespacedService({ namespace: ns });
    });
    informer.on('add', (s) => seen.push(`add ${s.metadata?.name}`));
    informer.on('update', (s) => seen.push(`update ${s.metadata?.name} ${s.status?.loadBalancer?.ingress?.[0]?.ip ?? ''}`));
    informer.on('delete', (s) => seen.push(`delete ${s.metadata?.name}`));
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      const created = await api.createNamespacedService({ namespace: ns, body: { metadata: { name: 'a' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } } });
      await waitFor(() => seen.includes('add a'));
      await api.replaceNamespacedServiceStatus({ name: 'a', namespace: ns, body: { ...created, status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } } } });
      await waitFor(() => seen.includes('update a 192.0.2.10'));

      // The server ends every watch stream; the informer re-watches from its last resourceVersion.
      const listsBefore = listCalls.length;
      t.server.app.get(WatchRegistry).closeAll();
      // Whether the create lands before or after the informer re-watches, the new watch starts
      // from its last resourceVersion and replays it: no sleep needed.
      await api.createNamespacedService({ namespace: ns, body: { metadata: { name: 'b' }, spec: { ports: [{ port: 80 }] } } });
      await waitFor(() => seen.includes('add b'));
      expect(listCalls.length).toBe(listsBefore);

      // A 410 Expired makes it relist.
      const changeLog = t.server.app.get<ServiceChanges>(SERVICE_CHANGES);
      const spy = jest.spyOn(changeLog, 'oldestResumable').mockResolvedValue(Number.MAX_SAFE_INTEGER - 1);
      try {
        t.server.app.get(WatchRegistry).closeAll();
        await waitFor(() => listCalls.length > listsBefore);
      } finally {
        spy.mockRestore();
      }
      await api.deleteNamespacedService({ name: 'a', namespace: ns });
      await waitFor(() => seen.includes('delete a'));
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});
