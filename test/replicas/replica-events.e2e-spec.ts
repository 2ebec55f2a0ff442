// core/v1 Events written by controllers on three replicas of one PostgreSQL database (real server
// processes, as replicas.e2e-spec.ts): an Event written through one replica is read on every
// other at once and watched on another in resourceVersion order without a gap, and the
// --event-ttl sweep, which every replica runs, ends each Event once, quietly.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ensureDataDir } from '../../src/tls/data-dir';
import { HttpsClient } from '../helpers/https-client';
import { describePostgres } from '../helpers/postgres';
import { buildDist, removeBuild, type ServerProcess, startServerProcess } from '../helpers/server-process';

interface Replica {
  name: string;
  process: ServerProcess;
  client: HttpsClient;
}

const SMP = 'application/strategic-merge-patch+json';
const TTL_SECONDS = 4;

const recorderEvent = (namespace: string, name: string) => ({
  metadata: { name, namespace },
  involvedObject: { kind: 'Service', namespace, name: 'web', uid: 'svc-uid', apiVersion: 'v1' },
  reason: 'EnsuringLoadBalancer',
  message: 'Ensuring load balancer',
  source: { component: 'service-controller' },
  firstTimestamp: '2026-12-07T10:00:00Z',
  lastTimestamp: '2026-12-07T10:00:00Z',
  count: 1,
  type: 'Normal',
  reportingComponent: 'service-controller',
  reportingInstance: '',
});

describePostgres('core/v1 Events on three replicas of one PostgreSQL database', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'svctrail-replica-events-'));
  const replicas: Replica[] = [];
  const [a, b, c] = [0, 1, 2].map((i) => () => replicas[i]);

  beforeAll(async () => {
    buildDist();
    await ensureDataDir({ dataDir: join(root, 'a'), now: () => new Date() });
    for (const name of ['b', 'c']) cpSync(join(root, 'a'), join(root, name), { recursive: true });
    const started = await Promise.allSettled(
      ['a', 'b', 'c'].map(async (name): Promise<Replica> => {
        const dataDir = join(root, name);
        const process = await startServerProcess(['--data-dir', dataDir, '--storage', database().url, '--event-ttl', `${TTL_SECONDS}s`, '--log-level', 'warn']);
        const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
        const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0];
        return { name, process, client: new HttpsClient(process.url, { ca, token }) };
      }),
    );
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

  it('an Event written on one replica is read on the others at once, and watched on another: ADDED, each MODIFIED, DELETED, in order, without a gap', async () => {
    const events = '/api/v1/namespaces/ev-rw/events';
    const head = (await c().client.get(events)).json.metadata.resourceVersion;
    const watch = await c().client.stream(`${events}?watch=true&resourceVersion=${head}`);
    expect(watch.status).toBe(200);
    const acked: { type: string; rv: string; text: string }[] = [];
    const created = await a().client.post(events, recorderEvent('ev-rw', 'web.1800000000000001'));
    expect(created.status).toBe(201);
    acked.push({ type: 'ADDED', rv: created.json.metadata.resourceVersion, text: created.text });
    for (const replica of [b(), c()]) {
      const read = await replica.client.get(`${events}/web.1800000000000001`);
      expect([replica.name, read.status, read.text]).toEqual([replica.name, 200, created.text]);
    }
    // The recorder's repeats, each through another replica.
    for (const [i, replica] of [b(), c(), a(), b()].entries()) {
      const repeat = await replica.client.request('PATCH', `${events}/web.1800000000000001`, { body: JSON.stringify({ count: i + 2 }), contentType: SMP });
      expect(repeat.status).toBe(200);
      acked.push({ type: 'MODIFIED', rv: repeat.json.metadata.resourceVersion, text: repeat.text });
      const list = await a().client.get(events);
      expect(list.json.items.map((e: any) => [e.metadata.name, e.count, e.metadata.resourceVersion])).toEqual([['web.1800000000000001', i + 2, repeat.json.metadata.resourceVersion]]);
    }
    const deleted = await c().client.delete(`${events}/web.1800000000000001`);
    expect(deleted.status).toBe(200);
    for (const replica of replicas) expect((await replica.client.get(`${events}/web.1800000000000001`)).status).toBe(404);
    const lines = await watch.take(acked.length + 1);
    watch.close();
    expect(lines.map((l) => l.type)).toEqual([...acked.map((x) => x.type), 'DELETED']);
    expect(lines.slice(0, -1).map((l) => JSON.stringify(l.object))).toEqual(acked.map((x) => x.text));
    const rvs = lines.map((l) => Number(l.object.metadata.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    expect(new Set(rvs).size).toBe(rvs.length);
  });

  it('the TTL sweep every replica runs ends each Event once: one expiry fact per Event, DELETED once, and no replica logs a failure', async () => {
    const events = '/api/v1/namespaces/ev-ttl/events';
    const head = (await b().client.get(events)).json.metadata.resourceVersion;
    const watch = await b().client.stream(`${events}?watch=true&resourceVersion=${head}`);
    const names = Array.from({ length: 9 }, (_, i) => `web.18000000000000${String(10 + i)}`);
    const created = await Promise.all(names.map((name, i) => replicas[i % 3].client.post(events, recorderEvent('ev-ttl', name))));
    expect(created.map((r) => r.status)).toEqual(names.map(() => 201));
    // Each Event's ADDED, then its DELETED once its lease ran out (the watch's own timeout bounds the wait).
    const lines = await watch.take(2 * names.length, (TTL_SECONDS + 30) * 1000);
    watch.close();
    expect(
      lines
        .filter((l) => l.type === 'ADDED')
        .map((l) => l.object.metadata.name)
        .sort(),
    ).toEqual([...names].sort());
    expect(
      lines
        .filter((l) => l.type === 'DELETED')
        .map((l) => l.object.metadata.name)
        .sort(),
    ).toEqual([...names].sort());
    const rvs = lines.map((l) => Number(l.object.metadata.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    for (const replica of replicas) {
      for (const name of names) expect((await replica.client.get(`${events}/${name}`)).status).toBe(404);
    }
    const db = new Client({ connectionString: database().url });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string; facts: string[]; users: string[] }>(
        `SELECT name, array_agg(type ORDER BY position) AS facts, array_agg((SELECT text FROM repeated_texts WHERE id = actor_user_id) ORDER BY position) AS users FROM events WHERE namespace = 'ev-ttl' GROUP BY name ORDER BY name`,
      );
      expect(rows).toEqual(names.map((name) => ({ name, facts: ['KubeEventCreated', 'KubeEventExpired'], users: ['admin', 'system:apiserver'] })));
      const { rows: live } = await db.query(`SELECT name FROM kube_events WHERE namespace = 'ev-ttl'`);
      expect(live).toEqual([]);
    } finally {
      await db.end();
    }
    // A replica that lost an expiry to another decided it again and found nothing to do: no warning, no error.
    for (const replica of replicas) {
      const logged = replica.process
        .stdout()
        .split('\n')
        .filter((line) => /expiring Events failed|"level":(40|50|60)/.test(line));
      expect({ replica: replica.name, logged }).toEqual({ replica: replica.name, logged: [] });
    }
  });
});
