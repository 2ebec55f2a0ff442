// Several replicas on one PostgreSQL database: three real server processes (`node main.js
// --storage postgres://…`), each with its own copy of one data directory (the same CA, serving
// certificate and tokens). What only several processes can break: read-your-writes across
// replicas, optimistic concurrency and allocation uniqueness under concurrent writes to
// different replicas, watch delivery across replicas (order, no gaps, no duplicates), kill -9 of
// a replica under load, and a PostgreSQL outage (on a cluster of the suite's own, which it stops and starts again).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpsClient, type WatchStream } from '../helpers/https-client';
import { describePrivatePostgres } from '../helpers/postgres-cluster';
import { ensureDataDir } from '../../src/tls/data-dir';
import { buildDist, removeBuild, type ServerProcess, startServerProcess } from '../helpers/server-process';

interface Replica {
  name: string;
  dataDir: string;
  process: ServerProcess;
  client: HttpsClient;
}

interface Ack {
  rv: number;
  text: string;
  name: string;
}

const svc = (name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}) => ({
  metadata: { name, labels },
  spec: { type: 'LoadBalancer', ports: [{ port: 80 }], ...spec },
});

/** Polls until `check` holds; the test's own timeout bounds it (no timed assertion). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Every event of a watch until it ends, gathered in the background. */
function gather(watch: WatchStream): { events: any[]; done: Promise<void> } {
  const events: any[] = [];
  const done = (async () => {
    for (;;) {
      const event = await watch.next(600_000);
      if (event === undefined) return;
      events.push(event);
    }
  })();
  return { events, done };
}

describePrivatePostgres('several replicas on one PostgreSQL database', (database, cluster) => {
  const root = mkdtempSync(join(tmpdir(), 'svctrail-replicas-'));
  const replicas: Replica[] = [];

  const startReplica = async (name: string, dataDir: string): Promise<Replica> => {
    const process = await startServerProcess(['--data-dir', dataDir, '--storage', database().url, '--log-level', 'warn']);
    const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
    const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0];
    return { name, dataDir, process, client: new HttpsClient(process.url, { ca, token }) };
  };

  beforeAll(async () => {
    buildDist();
    // One set of credentials, copied to each replica's directory; the three start at once on the
    // empty database (they take turns at migrating; one creates default/kubernetes).
    await ensureDataDir({ dataDir: join(root, 'a'), now: () => new Date() });
    for (const name of ['b', 'c']) cpSync(join(root, 'a'), join(root, name), { recursive: true });
    const started = await Promise.allSettled(['a', 'b', 'c'].map((name) => startReplica(name, join(root, name))));
    for (const outcome of started) if (outcome.status === 'fulfilled') replicas.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }, 180_000);

  afterAll(async () => {
    for (const replica of replicas) {
      if (replica.process.child.exitCode === null && replica.process.child.signalCode === null) {
        replica.process.child.kill('SIGTERM');
        await replica.process.exited;
      }
    }
    rmSync(root, { recursive: true, force: true });
    removeBuild();
  }, 60_000);

  const [a, b, c] = [0, 1, 2].map((i) => () => replicas[i]);

  it('each replica serves the same credentials, and a write acknowledged by one is read by every other at once', async () => {
    // Started together, they made one default/kubernetes.
    const kubernetes = await Promise.all(replicas.map((r) => r.client.get('/api/v1/namespaces/default/services/kubernetes')));
    expect(kubernetes.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(kubernetes.map((r) => r.text)).size).toBe(1);
    const ns = '/api/v1/namespaces/rw-read/services';
    const created = await a().client.post(ns, svc('one'));
    expect(created.status).toBe(201);
    for (const replica of [b(), c()]) {
      const read = await replica.client.get(`${ns}/one`);
      expect([replica.name, read.status, read.text]).toEqual([replica.name, 200, created.text]);
    }
    const updated = await b().client.put(`${ns}/one/status`, { ...created.json, status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } } });
    expect(updated.status).toBe(200);
    const onC = await c().client.get(`${ns}/one`);
    expect(onC.text).toBe(updated.text);
    const list = await a().client.get(ns);
    expect(list.json.items.map((item: any) => item.metadata.resourceVersion)).toEqual([updated.json.metadata.resourceVersion]);
    expect(Number(list.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(updated.json.metadata.resourceVersion));
    const deleted = await c().client.delete(`${ns}/one`);
    expect(deleted.status).toBe(200);
    expect((await a().client.get(`${ns}/one`)).status).toBe(404);
  });

  it('names, resourceVersion preconditions, cluster IPs and node ports hold across replicas writing at once', async () => {
    const ns = '/api/v1/namespaces/rw-conflicts/services';
    const all = () => replicas.map((r) => r.client);

    // One name created on three replicas at once: one creation, two AlreadyExists.
    const sameName = await Promise.all(all().map((client) => client.post(ns, svc('contested'))));
    expect(sameName.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(sameName.filter((r) => r.status === 409).map((r) => r.json.reason)).toEqual(['AlreadyExists', 'AlreadyExists']);

    // Two updates from the same resourceVersion on two replicas: one wins, the other is a Conflict.
    const current = (await a().client.get(`${ns}/contested`)).json;
    const updates = await Promise.all([b(), c()].map((replica) => replica.client.put(`${ns}/contested`, { ...current, metadata: { ...current.metadata, labels: { by: replica.name } } })));
    expect(updates.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = updates.find((r) => r.status === 200)!;
    expect(updates.find((r) => r.status === 409)!.json.reason).toBe('Conflict');
    expect((await a().client.get(`${ns}/contested`)).text).toBe(winner.text);

    // The same explicit cluster IP, and the same explicit node port, asked of three replicas at once.
    const sameIp = await Promise.all(all().map((client, i) => client.post(ns, svc(`ip-${i}`, { type: 'ClusterIP', clusterIP: '10.96.200.7' }))));
    expect(sameIp.map((r) => r.status).sort()).toEqual([201, 422, 422]);
    for (const refused of sameIp.filter((r) => r.status === 422)) expect(refused.text).toMatch(/already allocated/);
    const samePort = await Promise.all(all().map((client, i) => client.post(ns, svc(`port-${i}`, { type: 'NodePort', ports: [{ port: 80, nodePort: 30777 }] }))));
    expect(samePort.map((r) => r.status).sort()).toEqual([201, 422, 422]);
    for (const refused of samePort.filter((r) => r.status === 422)) expect(refused.text).toMatch(/already allocated/);

    // Many random allocations at once on every replica: all distinct.
    const many = await Promise.all(Array.from({ length: 30 }, (_, i) => all()[i % 3].post(ns, svc(`many-${i}`, { type: 'NodePort' }))));
    expect(many.map((r) => r.status)).toEqual(Array(30).fill(201));
    const ips = many.map((r) => r.json.spec.clusterIP);
    const ports = many.map((r) => r.json.spec.ports[0].nodePort);
    expect(new Set([...ips, '10.96.200.7']).size).toBe(31);
    expect(new Set([...ports, 30777]).size).toBe(31);
  });

  it('a watcher on one replica sees the writes made through the others in resourceVersion order, each once', async () => {
    const ns = '/api/v1/namespaces/rw-watch/services';
    const from = (await b().client.get(ns)).json.metadata.resourceVersion;
    const watch = await b().client.stream(`${ns}?watch=true&resourceVersion=${from}`);
    expect(watch.status).toBe(200);
    const acked: Ack[] = [];
    const writer = async (replica: Replica, w: number) => {
      for (let i = 0; i < 8; i++) {
        const name = `${replica.name}-${w}-${i}`;
        const created = await replica.client.post(ns, svc(name));
        expect(created.status).toBe(201);
        acked.push({ rv: Number(created.json.metadata.resourceVersion), text: created.text, name });
        const status = await replica.client.put(`${ns}/${name}/status`, { ...created.json, status: { loadBalancer: { ingress: [{ ip: `192.0.2.${i + 1}` }] } } });
        expect(status.status).toBe(200);
        acked.push({ rv: Number(status.json.metadata.resourceVersion), text: status.text, name });
      }
    };
    await Promise.all([writer(a(), 0), writer(c(), 0), writer(a(), 1), writer(c(), 1)]);
    const events = await watch.take(acked.length);
    watch.close();
    acked.sort((x, y) => x.rv - y.rv);
    expect(events.map((e) => Number(e.object.metadata.resourceVersion))).toEqual(acked.map((ack) => ack.rv));
    expect(events.map((e) => JSON.stringify(e.object))).toEqual(acked.map((ack) => ack.text));
  });

  it('kill -9 of a replica under write load: no acknowledged write is lost, the others keep serving, its watcher resumes on another replica without a gap', async () => {
    const ns = '/api/v1/namespaces/rw-kill/services';
    const from = Number((await a().client.get(ns)).json.metadata.resourceVersion);
    const victim = c();
    const before = gather(await victim.client.stream(`${ns}?watch=true&resourceVersion=${from}`));
    const acked: Ack[] = [];
    let ackedOnVictim = 0;
    let ackedOnA = 0;
    let killedAtA = Number.POSITIVE_INFINITY;
    let stop = false;
    let killed!: () => void;
    const killedNow = new Promise<void>((resolve) => (killed = resolve));

    const worker = async (replica: Replica, w: number, isVictim: boolean) => {
      for (let i = 0; !stop; i++) {
        const name = `${replica.name}-${w}-${i}`;
        let created;
        try {
          created = await replica.client.post(ns, svc(name));
        } catch (error) {
          // Only the killed replica may drop a connection; its unanswered write may or may not be stored.
          if (isVictim && /ECONNRESET|ECONNREFUSED|socket hang up|EPIPE/.test(String(error))) return;
          throw error;
        }
        expect(created.status).toBe(201);
        acked.push({ rv: Number(created.json.metadata.resourceVersion), text: created.text, name });
        if (isVictim && ++ackedOnVictim === 20) {
          victim.process.child.kill('SIGKILL');
          killed();
        }
        if (!isVictim) ackedOnA++;
        // The survivors go on serving well past the kill.
        if (!isVictim && ackedOnA >= killedAtA + 15) stop = true;
      }
    };
    const victimWorkers = [0, 1, 2].map((w) => worker(victim, w, true));
    const aWorkers = [0, 1, 2].map((w) => worker(a(), w, false));
    await killedNow;
    killedAtA = ackedOnA;
    await victim.process.exited;
    await Promise.all([...victimWorkers, ...aWorkers]);
    await before.done;
    // Answers already on their way when it died may still arrive.
    expect(ackedOnVictim).toBeGreaterThanOrEqual(20);
    expect(ackedOnA).toBeGreaterThanOrEqual(killedAtA + 15);

    // The watcher resumes on b from the last resourceVersion it received, and reads up to a marker.
    const lastSeen = before.events.length ? Number(before.events[before.events.length - 1].object.metadata.resourceVersion) : from;
    const resumed = await b().client.stream(`${ns}?watch=true&resourceVersion=${lastSeen}`);
    expect(resumed.status).toBe(200);
    const marker = await a().client.post(ns, svc('marker'));
    expect(marker.status).toBe(201);
    const after: any[] = [];
    for (;;) {
      const event = await resumed.next();
      expect(event).toBeDefined();
      after.push(event);
      if (event.object.metadata.name === 'marker') break;
    }
    resumed.close();

    const seen = [...before.events, ...after].map((e) => ({ rv: Number(e.object.metadata.resourceVersion), text: JSON.stringify(e.object) }));
    const rvs = seen.map((s) => s.rv);
    // In order, each once, across the two replicas.
    expect(rvs).toEqual([...new Set(rvs)].sort((x, y) => x - y));
    const byRv = new Map(seen.map((s) => [s.rv, s.text]));
    for (const ack of acked) expect([ack.name, byRv.get(ack.rv)]).toEqual([ack.name, ack.text]);
    // And every acknowledged write is there to read on the survivors.
    const listed = new Set((await b().client.get(ns)).json.items.map((item: any) => item.metadata.name));
    for (const ack of acked) expect(listed.has(ack.name)).toBe(true);
  }, 120_000);

  it('a replica that cannot reach the database refuses to start, naming it without its password', async () => {
    const dataDir = join(root, 'unreachable');
    cpSync(a().dataDir, dataDir, { recursive: true });
    const url = new URL(database().url);
    url.port = '1'; // nothing listens there
    url.password = 'not-for-logs'; // the suite's own cluster trusts 127.0.0.1, so its URL has none
    const failure = await startServerProcess(['--data-dir', dataDir, '--storage', url.toString()]).then(
      (started) => {
        started.child.kill('SIGKILL');
        throw new Error('a replica started without its database');
      },
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/the PostgreSQL store at postgres:\/\/[^:]+:\*\*\*@127\.0\.0\.1:1\/\S+ cannot be opened: connect ECONNREFUSED/);
    expect(failure).not.toContain(`:${url.password}@`);
  });

  // Last: it stops the suite's cluster (and always starts it again).
  it('a PostgreSQL outage: replicas report not ready and refuse writes, then recover by themselves; a watcher opened before it hears the writes after it', async () => {
    const survivors = [a(), b()];
    const ns = '/api/v1/namespaces/rw-outage/services';
    const from = (await b().client.get(ns)).json.metadata.resourceVersion;
    const watch = await b().client.stream(`${ns}?watch=true&resourceVersion=${from}`);
    expect(watch.status).toBe(200);
    const readyz = async (replica: Replica) => (await replica.client.get('/readyz')).status;
    try {
      cluster().stop();
      await until(async () => (await Promise.all(survivors.map(readyz))).every((status) => status === 503));
      // As kube-apiserver answers for an unreachable etcd: a ServerTimeout clients retry after 2 s.
      const read = await a().client.get(`${ns}/anything`);
      expect([read.status, read.headers['retry-after'], read.json]).toEqual([
        500,
        '2',
        expect.objectContaining({ kind: 'Status', status: 'Failure', reason: 'ServerTimeout', details: { name: 'get', kind: 'services', retryAfterSeconds: 2 } }),
      ]);
      const refused = await a().client.post(ns, svc('during-outage'));
      expect(refused.status).toBe(500);
      // Unreachable before it began (ServerTimeout), or lost while it committed (may or may not be stored).
      expect(refused.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: expect.stringMatching(/^(ServerTimeout|InternalError)$/) });
    } finally {
      cluster().start();
    }
    await until(async () => (await Promise.all(survivors.map(readyz))).every((status) => status === 200));
    const created = await a().client.post(ns, svc('after-outage'));
    expect(created.status).toBe(201);
    // The refused write was not stored: the first event is the write after the outage.
    const event = await watch.next();
    watch.close();
    expect([event?.type, event?.object.metadata.name, JSON.stringify(event?.object)]).toEqual(['ADDED', 'after-outage', created.text]);
    expect((await b().client.get(`${ns}/during-outage`)).status).toBe(404);
  }, 180_000);
});
