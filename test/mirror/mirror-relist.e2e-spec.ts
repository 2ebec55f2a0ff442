// A mirror's LIST of many Services (2,100, five pages of 500), first list and relist after 410,
// against a real svctrail source behind the fault proxy. The proxy holds a page back to see what
// the mirror recorded before it: each page is recorded before the page after the next is read,
// so the reflector never holds the list (the bench measures the memory this saves on 10,000). A
// relist deletes what is gone before it creates anything (a new Service may hold a gone one's
// cluster IP or node port), and a kill -9 in the middle of one loses and repeats nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { HttpsClient } from '../helpers/https-client';
import { describePostgres } from '../helpers/postgres';
import { buildDist, removeBuild, type ServerProcess, startServerProcess } from '../helpers/server-process';
import { describeEachBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const SERVICES = 2100;
const NS = '/api/v1/namespaces/bulk/services';
const PAGE = 500;
const LB = { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] };

type Json = Record<string, any>;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const name = (i: number) => `svc-${String(i).padStart(4, '0')}`;
const ipOf = (i: number) => `198.18.${(i >> 8) & 255}.${i & 255}`;

async function pool(n: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** The continue token of a page request of the Services' LIST (not the Events'), if any. */
function servicesToken(path: string): string | null {
  if (!path.startsWith('/api/v1/services?')) return null;
  return new URL(path, 'https://proxy').searchParams.get('continue');
}

/** Pauses the `page`-th page (2 or more) of the first walk of the Services' LIST. */
function pauseFirstWalkAt(page: number): (path: string) => boolean {
  let continued = 0;
  return (path) => servicesToken(path) !== null && ++continued === page - 1;
}

/** Pauses the `page`-th page (2 or more) of a relist's second walk: the first token asked for again. */
function pauseSecondWalkAt(page: number): (path: string) => boolean {
  const seen = new Set<string>();
  let again = 0;
  return (path) => {
    const token = servicesToken(path);
    if (token === null) return false;
    if (!seen.has(token)) {
      seen.add(token);
      return false;
    }
    return ++again === page - 1;
  };
}

/** A source with SERVICES Services in namespace bulk, load balancers but two NodePort ones. */
async function bulkSource(): Promise<TestServer> {
  const source = await startTestServer();
  await pool(SERVICES, async (i) => {
    const nodePort = i === 2 || i === 3;
    const res = await source.client.post(NS, {
      metadata: { name: name(i) },
      spec: nodePort ? { type: 'NodePort', ports: [{ port: 80, nodePort: 30000 + i }] } : LB,
    });
    if (res.status !== 201) throw new Error(`source: ${res.status} ${res.text}`);
  });
  return source;
}

interface RelistChanges {
  updated: string[];
  deleted: string[];
  created: string[];
  /** The cluster IP and the node port the deleted svc-0001 and svc-0002 held, taken by new Services. */
  reused: { clusterIP: string; nodePort: number };
}

/**
 * What happens at the source while the mirror is away: 50 Services are deleted, every 29th of the
 * others gets a new ingress (so every page has some), 50 are created; two of the new ones take the
 * cluster IP and the node port of deleted ones. `new-…` sorts before `svc-…`: those creations are on the first page.
 */
async function changeSource(source: TestServer): Promise<RelistChanges> {
  const deleted = [name(1), name(2), ...Array.from({ length: 48 }, (_, k) => name(SERVICES - 1 - k))];
  const updated = Array.from({ length: Math.ceil(SERVICES / 29) }, (_, k) => name(k * 29 + 5)).filter((n) => !deleted.includes(n));
  const holderIp = (await source.client.get(`${NS}/${name(1)}`)).json.spec.clusterIP as string;
  const reused = { clusterIP: holderIp, nodePort: 30002 };
  await pool(updated.length, async (k) => {
    const current = (await source.client.get(`${NS}/${updated[k]}`)).json;
    const res = await source.client.put(`${NS}/${updated[k]}/status`, { ...current, status: { loadBalancer: { ingress: [{ ip: ipOf(k + 1) }] } } });
    if (res.status !== 200) throw new Error(`source: ${res.status} ${res.text}`);
  });
  for (const gone of deleted) expect((await source.client.delete(`${NS}/${gone}`)).status).toBe(200);
  const created = Array.from({ length: 50 }, (_, k) => `new-${String(k).padStart(2, '0')}`);
  for (const [k, fresh] of created.entries()) {
    const spec = k === 0 ? { type: 'ClusterIP', clusterIP: reused.clusterIP, ports: [{ port: 80 }] } : k === 1 ? { type: 'NodePort', ports: [{ port: 80, nodePort: reused.nodePort }] } : LB;
    const res = await source.client.post(NS, { metadata: { name: fresh }, spec });
    if (res.status !== 201) throw new Error(`source: ${res.status} ${res.text}`);
  }
  return { updated, deleted, created, reused };
}

/** name → first ingress IP ('' for none) of every Service in bulk. */
async function ingressByName(client: HttpsClient): Promise<Map<string, string>> {
  const items = (await client.get(`${NS}?limit=10000`)).json.items as Json[];
  return new Map(items.map((s) => [s.metadata.name as string, (s.status?.loadBalancer?.ingress?.[0]?.ip as string) ?? '']));
}

const sameServices = async (mirror: HttpsClient, source: HttpsClient) => {
  const [got, expected] = await Promise.all([ingressByName(mirror), ingressByName(source)]);
  return got.size === expected.size && [...expected].every(([n, ip]) => got.get(n) === ip);
};

const recordedWrites = async (client: HttpsClient, via: string) =>
  Number(new RegExp(`^svctrail_mirror_recorded_writes_total\\{resource="services",via="${via}"\\} (\\d+)$`, 'm').exec((await client.get('/metrics')).text)?.[1] ?? 0);

/** Every change of bulk that a relist recorded, oldest first. */
async function relistChanges(client: HttpsClient): Promise<Json[]> {
  const items = (await client.get(`${H}/namespaces/bulk/changes?limit=100000`)).json.items as Json[];
  return items.filter((c) => c.source?.via === 'relist');
}

function kubeconfigFor(dir: string, proxy: FaultProxy, source: TestServer): string {
  const path = join(dir, 'source.kubeconfig');
  writeFileSync(path, renderKubeconfig({ server: proxy.url, caPem: proxy.caPem, user: { token: source.adminToken }, userName: 'admin', clusterName: 'source' }));
  return path;
}

describeEachBackend('a mirror lists and relists many Services a page at a time', (backend) => {
  let source: TestServer;
  let proxy: FaultProxy;
  let mirror: TestServer | undefined;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-relist-'));
    source = await bulkSource();
    proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
  }, 180_000);

  afterAll(async () => {
    await mirror?.stop();
    await proxy?.close();
    await source?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the first list page by page: while page 4 is held back, pages 1 to 3 are recorded', async () => {
    proxy.pauseRequests(pauseFirstWalkAt(4));
    mirror = await backend.start({ dataDir: join(dir, 'mirror'), config: { mirror: kubeconfigFor(dir, proxy, source), mirrorWatchTimeoutSeconds: 20 } });
    await until(async () => proxy.paused().length === 1, 'page 4 to be asked for');
    await until(async () => (await recordedWrites(mirror!.client, 'list')) >= 3 * PAGE, 'pages 1 to 3 to be recorded while page 4 is held');
    expect(await recordedWrites(mirror.client, 'list')).toBe(3 * PAGE);
    proxy.pauseRequests(null);
    await until(async () => (await mirror!.client.get('/readyz')).text === 'ok', 'the first list to complete');
    expect(await sameServices(mirror.client, source.client)).toBe(true);
  }, 120_000);

  it('relists after 410 with every gone Service deleted before anything is created, the objects recorded page by page', async () => {
    await proxy.stop();
    await until(async () => (await mirror!.client.get('/readyz')).status === 503, 'the mirror to lose its watch');
    const changes = await changeSource(source);
    proxy.expireBelow(Number((await source.client.get(`${NS}?limit=1`)).json.metadata.resourceVersion));
    proxy.pauseRequests(pauseSecondWalkAt(4));
    await proxy.start();
    await until(async () => proxy.paused().length === 1, 'page 4 of the second walk to be asked for', 90_000);
    // Held at page 4: every gone Service is deleted, and the pages before it are recorded, not the ones after.
    const atPage4 = await ingressByName(mirror!.client);
    expect(changes.deleted.filter((n) => atPage4.has(n))).toEqual([]);
    const page = (n: string) => Math.floor(Number(n.slice(4)) / PAGE) + 1;
    const expectedIp = (k: number) => ipOf(k + 1);
    await until(async () => {
      const now = await ingressByName(mirror!.client);
      return changes.updated.every((n, k) => page(n) >= 3 || now.get(n) === expectedIp(k));
    }, 'the updates of pages 1 and 2 (new-… first) to be recorded while page 4 is held');
    const held = await ingressByName(mirror!.client);
    expect(changes.updated.filter((n, k) => page(n) >= 5 && held.get(n) === expectedIp(k))).toEqual([]);
    proxy.pauseRequests(null);
    await until(() => sameServices(mirror!.client, source.client), 'the relist to complete', 90_000);
    const relisted = await relistChanges(mirror!.client);
    const deletions = relisted.filter((c) => c.verb === 'delete').map((c) => Number(c.metadata.resourceVersion));
    const creations = relisted.filter((c) => c.verb === 'create').map((c) => Number(c.metadata.resourceVersion));
    expect(deletions).toHaveLength(changes.deleted.length);
    expect(creations).toHaveLength(changes.created.length);
    expect(Math.max(...deletions)).toBeLessThan(Math.min(...creations));
    const reusedIp = (await mirror!.client.get(`${NS}/new-00`)).json;
    expect(reusedIp.spec.clusterIP).toBe(changes.reused.clusterIP);
    expect((await mirror!.client.get(`${NS}/new-01`)).json.spec.ports[0].nodePort).toBe(changes.reused.nodePort);
    proxy.expireBelow(null);
  }, 240_000);
});

/** A relist cut by kill -9 after part of it was recorded, then done again by the next start. */
function relistUnderKillNine(title: string, storageArgs: () => string[]) {
  describe(title, () => {
    const dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-relist-kill9-'));
    const dataDir = join(dir, 'mirror');
    let source: TestServer;
    let proxy: FaultProxy;
    /** Every mirror process started: none outlives the suite, whatever step failed. */
    const started: ServerProcess[] = [];
    const start = async (args: string[]): Promise<ServerProcess> => {
      const server = await startServerProcess(args);
      started.push(server);
      return server;
    };

    beforeAll(async () => {
      buildDist();
      source = await bulkSource();
      proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
    }, 240_000);

    afterAll(async () => {
      for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await proxy?.close();
      await source?.stop();
      removeBuild();
      rmSync(dir, { recursive: true, force: true });
    });

    it('records every state once: what the cut relist stored is not recorded again, nothing is lost, and the watch resumes right after', async () => {
      const kubeconfig = kubeconfigFor(dir, proxy, source);
      const args = ['--data-dir', dataDir, ...storageArgs(), '--mirror', kubeconfig, '--log-level', 'warn'];
      const client = (url: string) => new HttpsClient(url, { ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'), token: readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0] });
      let server = await start(args);
      await until(async () => (await client(server.url).get('/readyz')).text === 'ok', 'the first list');
      server.child.kill('SIGKILL');
      await server.exited;

      const changes = await changeSource(source);
      const head = Number((await source.client.get(`${NS}?limit=1`)).json.metadata.resourceVersion);
      proxy.expireBelow(head);
      proxy.pauseRequests(pauseSecondWalkAt(3));
      const firstPages = () => proxy.requests.filter((r) => r.path === `/api/v1/services?limit=${PAGE}`).length;
      const listsBefore = firstPages();
      server = await start(args);
      await until(async () => proxy.paused().length === 1, 'the relist to reach page 3 of its second walk', 180_000).catch((error: Error) => {
        // What the mirror asked for and said, to tell a slow relist from one that took another way.
        const asked = proxy.requests.slice(-12).map((r) => `${r.method} ${r.path} ${r.status ?? ''}`);
        throw new Error(`${error.message}\nlast requests:\n${asked.join('\n')}\nmirror stderr:\n${server.stderr().slice(-2000)}\nmirror stdout:\n${server.stdout().slice(-2000)}`);
      });
      // Cut once the deletions and the creations (page 1) are stored.
      const cut = client(server.url);
      await until(async () => (await recordedWrites(cut, 'relist')) >= changes.deleted.length + changes.created.length, 'the first part of the relist to be stored');
      server.child.kill('SIGKILL');
      await server.exited;
      proxy.pauseRequests(null);

      server = await start(args);
      try {
        const mirror = client(server.url);
        await until(() => sameServices(mirror, source.client), 'the second relist to complete', 120_000);
        // The relist ran twice (the first one cut), each from its own first page.
        expect(firstPages() - listsBefore).toBe(2);
        const relisted = await relistChanges(mirror);
        const byName = new Map<string, string[]>();
        for (const c of relisted) byName.set(c.service.name as string, [...(byName.get(c.service.name as string) ?? []), c.verb as string]);
        expect(changes.deleted.map((n) => byName.get(n))).toEqual(changes.deleted.map(() => ['delete']));
        expect(changes.created.map((n) => byName.get(n))).toEqual(changes.created.map(() => ['create']));
        expect(changes.updated.map((n) => byName.get(n))).toEqual(changes.updated.map(() => ['update']));
        expect(relisted).toHaveLength(changes.deleted.length + changes.created.length + changes.updated.length);
        // The resume point is the relist's: the next write at the source arrives by the watch, once.
        proxy.expireBelow(null);
        const current = (await source.client.get(`${NS}/${name(7)}`)).json;
        const written = (await source.client.put(`${NS}/${name(7)}/status`, { ...current, status: { loadBalancer: { ingress: [{ ip: '192.0.2.77' }] } } })).json;
        await until(async () => (await mirror.get(`${NS}/${name(7)}`)).json.status.loadBalancer.ingress?.[0]?.ip === '192.0.2.77', 'the write after the relist');
        const after = (await mirror.get(`${H}/namespaces/bulk/services/${name(7)}/changes`)).json.items as Json[];
        expect(after.filter((c) => c.source?.resourceVersion === written.metadata.resourceVersion)).toMatchObject([{ source: { via: 'watch' } }]);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }, 420_000);
  });
}

relistUnderKillNine('a relist cut by kill -9 [sqlite]', () => []);
describePostgres('a relist cut by kill -9 [postgres]', (database) => relistUnderKillNine('on PostgreSQL', () => ['--storage', database().url]));
