// Mirror mode end to end: a real svctrail process-in-test as the source cluster, reached through
// the fault-injecting TLS proxy, and a second svctrail recording it (--mirror). The source keeps
// its own history, so every write the mirror should have recorded can be read back from it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHistory } from '../../src/cli/history-reader';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { startFaultProxy } from '../helpers/fault-proxy';
import type { FaultProxy } from '../helpers/fault-proxy';
import { describeEachBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const LB = { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] };

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A kubeconfig naming `server` with the admin token of a svctrail source. */
function kubeconfigFile(dir: string, name: string, server: string, caPem: string, token: string): string {
  const path = join(dir, name);
  writeFileSync(path, renderKubeconfig({ server, caPem, user: { token }, userName: 'admin', clusterName: 'source' }));
  return path;
}

describeEachBackend('mirror mode (--mirror): a svctrail source behind a fault-injecting proxy', (backend) => {
  let source: TestServer;
  let proxy: FaultProxy;
  let mirror: TestServer | undefined;
  let dir: string;
  let mirrorDataDir: string;

  const sourceWrite = async (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: object) => {
    const res = await source.client.request(method, path, body ? { body } : {});
    if (res.status >= 300) throw new Error(`source ${method} ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  const setIngress = async (name: string, ip: string) => {
    const current = (await source.client.get(`/api/v1/namespaces/a/services/${name}`)).json;
    return sourceWrite('PUT', `/api/v1/namespaces/a/services/${name}/status`, { ...current, status: { loadBalancer: { ingress: [{ ip }] } } });
  };
  const mirrored = (path: string) => mirror!.client.get(path);
  const mirroredIngress = async (name: string) => (await mirrored(`/api/v1/namespaces/a/services/${name}`)).json?.status?.loadBalancer?.ingress?.[0]?.ip;
  const changes = async (server: TestServer, name: string) => (await server.client.get(`${H}/namespaces/a/services/${name}/changes?limit=500`)).json.items as any[];
  const lists = () => proxy.requests.filter((r) => r.method === 'GET' && /^\/api\/v1\/services\?/.test(r.path) && !/[?&]watch=(true|1)/.test(r.path)).length;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-'));
    mirrorDataDir = join(dir, 'mirror');
    source = await startTestServer();
    await sourceWrite('POST', '/api/v1/namespaces/a/services', { metadata: { name: 'web', labels: { app: 'web' } }, spec: LB });
    await setIngress('web', '203.0.113.7');
    await sourceWrite('POST', '/api/v1/namespaces/a/services', { metadata: { name: 'old' }, spec: LB });
    proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
    const kubeconfig = kubeconfigFile(dir, 'source.kubeconfig', proxy.url, proxy.caPem, source.adminToken);
    mirror = await backend.start({ dataDir: mirrorDataDir, config: { mirror: kubeconfig, mirrorWatchTimeoutSeconds: 20 } });
    await until(async () => (await mirroredIngress('web')) === '203.0.113.7', 'the first list to be recorded');
  });

  afterAll(async () => {
    await mirror?.stop();
    await proxy?.close();
    await source?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the source object as the source has it (uid, creation time, labels, spec, status, managedFields) with its own resourceVersion', async () => {
    const original = (await source.client.get('/api/v1/namespaces/a/services/web')).json;
    const copy = (await mirrored('/api/v1/namespaces/a/services/web')).json;
    const { resourceVersion: _a, ...sourceMeta } = original.metadata;
    const { resourceVersion: _b, ...mirrorMeta } = copy.metadata;
    expect(mirrorMeta).toEqual(sourceMeta);
    expect(copy.spec).toEqual(original.spec);
    expect(copy.status).toEqual(original.status);
    // LIST, Table and the default/kubernetes Service of the source are served too.
    const list = (await mirrored('/api/v1/namespaces/a/services')).json;
    expect(list.items.map((s: any) => s.metadata.name)).toEqual(['old', 'web']);
    expect((await mirrored('/api/v1/namespaces/default/services/kubernetes')).json.metadata.uid).toBe((await source.client.get('/api/v1/namespaces/default/services/kubernetes')).json.metadata.uid);
  });

  it('keeps where the first list found each Service: the change carries source {resourceVersion, observedAt, via: list} and the field manager as a hint', async () => {
    const original = (await source.client.get('/api/v1/namespaces/a/services/web')).json;
    const [created] = await changes(mirror!, 'web');
    expect(created.verb).toBe('create');
    expect(created.source).toMatchObject({ resourceVersion: original.metadata.resourceVersion, via: 'list' });
    expect(Date.parse(created.source.observedAt)).toBeGreaterThan(0);
    expect(created.actor.user).toBe('');
    expect(created.actor.fieldManager).not.toBe('');
  });

  it('records each later write from the watch, once and in order, as the same domain events a direct write makes', async () => {
    for (const ip of ['203.0.113.8', '203.0.113.9', '203.0.113.10']) await setIngress('web', ip);
    await until(async () => (await mirroredIngress('web')) === '203.0.113.10', 'the watch to bring the writes');
    const watched = (await changes(mirror!, 'web')).filter((c) => c.source?.via === 'watch');
    // The source (svctrail) recorded its own events for the same writes: the mirror's are the same.
    const direct = (await changes(source, 'web')).slice(-3);
    expect(watched.map((c) => c.events)).toEqual(direct.map((c) => c.events));
    expect(watched.map((c) => c.source.resourceVersion)).toEqual(direct.map((c) => c.metadata.resourceVersion));
    expect(watched.map((c) => c.events[0].data.ingress[0].ip)).toEqual(['203.0.113.8', '203.0.113.9', '203.0.113.10']);
    expect(watched.map((c) => c.subresource)).toEqual(['status', 'status', 'status']);
    // Condition transitions of mirrored writes say where they came from too.
    const current = (await source.client.get('/api/v1/namespaces/a/services/web')).json;
    const ready = await sourceWrite('PUT', '/api/v1/namespaces/a/services/web/status', {
      ...current,
      status: { ...current.status, conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: '', lastTransitionTime: '2026-01-02T03:04:05Z' }] },
    });
    await until(async () => (await mirrored(`${H}/namespaces/a/services/web/conditiontransitions`)).json.items.length === 1, 'the condition transition');
    const [transition] = (await mirrored(`${H}/namespaces/a/services/web/conditiontransitions`)).json.items;
    expect(transition).toMatchObject({ conditionType: 'Ready', toStatus: 'True', source: { resourceVersion: ready.metadata.resourceVersion, via: 'watch' } });
    // Who held 203.0.113.8, answered from the recorded history.
    const held = (await mirrored(`${H}/ingressowners?address=203.0.113.8`)).json;
    expect(held.items.map((i: any) => i.service.name)).toEqual(['web']);
    // Every history item of a mirrored write says where it came from: ingress intervals (set and
    // cleared), field ownership, the change feed.
    expect(held.items[0].from.source).toEqual(watched[0].source);
    expect(held.items[0].to.source).toEqual(watched[1].source);
    const owners = (await mirrored(`${H}/namespaces/a/services/web/fieldownerships?field=.status.loadBalancer`)).json.items;
    expect(owners.length).toBeGreaterThan(0);
    expect(owners.every((o: any) => o.from.source?.via)).toBe(true);
    const feed = (await mirrored(`${H}/feed?after=0`)).text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(feed.filter((c) => c.service.name === 'web').map((c) => c.source)).toEqual((await changes(mirror!, 'web')).map((c) => c.source));
  });

  it('gives the CLI the same source of each mirrored write as the API', async () => {
    const config = mirror!.server.app.get<AppConfig>(APP_CONFIG);
    const reader = await openHistory(config.storageUrl ? { engine: 'postgres', url: config.storageUrl } : { engine: 'sqlite', dataDir: config.dataDir });
    try {
      const list = (await reader.changes.list({ namespace: 'a', name: 'web' }, { limit: '500' })).encoded.object as { items: any[] };
      expect(list.items.map((c) => c.source)).toEqual((await changes(mirror!, 'web')).map((c) => c.source));
      expect(list.items.every((c) => c.source?.via)).toBe(true);
    } finally {
      await reader.close();
    }
  });

  it('follows the change feed live with the source of each mirrored write', async () => {
    const head = (await mirrored('/api/v1/namespaces/a/services')).json.metadata.resourceVersion;
    const stream = await mirror!.client.stream(`${H}/feed?after=${head}&follow=true&timeoutSeconds=10`);
    try {
      const written = await setIngress('web', '203.0.113.12');
      const line = await stream.next(10_000);
      expect(line).toMatchObject({ kind: 'ServiceChange', service: { name: 'web' }, source: { resourceVersion: written.metadata.resourceVersion, via: 'watch' } });
    } finally {
      stream.response.destroy();
    }
  });

  it('answers every write verb on Services with 405 MethodNotAllowed, as a Status, and changes nothing', async () => {
    const before = (await mirrored('/api/v1/namespaces/a/services/web')).text;
    const body = (await mirrored('/api/v1/namespaces/a/services/web')).json;
    const attempts = [
      mirror!.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'new' }, spec: LB }),
      mirror!.client.put('/api/v1/namespaces/a/services/web', body),
      mirror!.client.put('/api/v1/namespaces/a/services/web/status', body),
      mirror!.client.request('PATCH', '/api/v1/namespaces/a/services/web', { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' }),
      mirror!.client.request('PATCH', '/api/v1/namespaces/a/services/web?fieldManager=t', { body: '{}', contentType: 'application/apply-patch+yaml' }),
      mirror!.client.delete('/api/v1/namespaces/a/services/web'),
      mirror!.client.delete('/api/v1/namespaces/a/services'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(405);
      expect(res.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server does not allow this method on the requested resource',
        reason: 'MethodNotAllowed',
        details: {},
        code: 405,
      });
    }
    expect((await mirrored('/api/v1/namespaces/a/services/web')).text).toBe(before);
  });

  it('resumes a closed watch from the last resourceVersion it recorded, without relisting', async () => {
    const listsBefore = lists();
    const last = (await changes(mirror!, 'web')).at(-1).source.resourceVersion;
    expect(proxy.closeWatches()).toBeGreaterThanOrEqual(1);
    await until(async () => proxy.requests.some((r) => /[?&]watch=(true|1)/.test(r.path) && r.path.includes(`resourceVersion=${last}`)), 'a watch resumed from the stored point', 10_000);
    await setIngress('web', '203.0.113.11');
    await until(async () => (await mirroredIngress('web')) === '203.0.113.11', 'the write after the resume');
    expect(lists()).toBe(listsBefore);
    expect((await mirrored('/readyz')).text).toBe('ok');
  });

  it('holds back nothing it was sent: watch data delayed by the source arrives later, every state in order', async () => {
    proxy.holdWatches(true);
    await setIngress('web', '198.51.100.1');
    await setIngress('web', '198.51.100.2');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mirroredIngress('web')).toBe('203.0.113.11');
    proxy.holdWatches(false);
    await until(async () => (await mirroredIngress('web')) === '198.51.100.2', 'the held data to be recorded');
    const ips = (await changes(mirror!, 'web')).map((c) => c.events.find((e: any) => e.type === 'LoadBalancerIngressChanged')?.data.ingress[0]?.ip).filter(Boolean);
    expect(ips.slice(-3)).toEqual(['203.0.113.11', '198.51.100.1', '198.51.100.2']);
  });

  it('relists only when the source answers 410 Expired, reconciling: changed objects become updates, gone ones deletions, new ones creations, each marked relist', async () => {
    const relists = async () => Number(/svctrail_mirror_relists_total\{resource="services"\} (\d+)/.exec((await mirrored('/metrics')).text)?.[1] ?? NaN);
    const relistsBefore = await relists();
    // The source goes away; meanwhile it changes, and (as after compaction) forgets the history before now.
    await proxy.stop();
    await until(async () => (await mirrored('/readyz')).status === 503, 'readyz to say the mirror is out of sync', 15_000);
    expect((await mirrored('/readyz')).text).toMatch(/\[-\]mirror-sync failed: .*\nreadyz check failed$/);
    await sourceWrite('POST', '/api/v1/namespaces/a/services', { metadata: { name: 'new' }, spec: LB });
    await sourceWrite('DELETE', '/api/v1/namespaces/a/services/old');
    await setIngress('web', '192.0.2.44');
    const head = Number((await source.client.get('/api/v1/namespaces/a/services')).json.metadata.resourceVersion);
    proxy.expireBelow(head + 1);
    await proxy.start();
    await until(async () => (await mirroredIngress('web')) === '192.0.2.44' && (await mirrored('/api/v1/namespaces/a/services/old')).status === 404, 'the relist to be recorded', 30_000);
    expect(await relists()).toBeGreaterThan(relistsBefore);
    expect((await changes(mirror!, 'web')).at(-1)).toMatchObject({ verb: 'update', source: { via: 'relist' } });
    expect((await changes(mirror!, 'old')).at(-1)).toMatchObject({ verb: 'delete', source: { via: 'relist', resourceVersion: String(head) } });
    expect(await changes(mirror!, 'new')).toMatchObject([{ verb: 'create', source: { via: 'relist' } }]);
    proxy.expireBelow(null);
    await until(async () => (await mirrored('/readyz')).text === 'ok', 'readyz to say the mirror is in sync again', 15_000);
  });

  it('refuses to start with a kubeconfig it cannot use, saying why', async () => {
    await expect(backend.start({ dataDir: join(dir, 'refused-1'), config: { mirror: join(dir, 'missing.kubeconfig') } })).rejects.toThrow(/cannot read the kubeconfig .*missing\.kubeconfig/);
    const other = join(dir, 'no-context.kubeconfig');
    writeFileSync(other, renderKubeconfig({ server: proxy.url, caPem: proxy.caPem, user: { token: 't' }, userName: 'u' }));
    await expect(backend.start({ dataDir: join(dir, 'refused-2'), config: { mirror: other, mirrorContext: 'prod' } })).rejects.toThrow(/has no context "prod"/);
  });

  it('refuses to start a store that recorded one cluster against another, saying so', async () => {
    await mirror!.stop();
    mirror = undefined;
    const other = await startTestServer();
    try {
      const kubeconfig = kubeconfigFile(dir, 'other.kubeconfig', other.server.url, other.ca, other.adminToken);
      await expect(backend.start({ dataDir: mirrorDataDir, config: { mirror: kubeconfig } })).rejects.toThrow(/a store mirrors one cluster/);
    } finally {
      await other.stop();
    }
  });
});
