// Several mirror replicas on one PostgreSQL store: every replica serves reads, exactly one records
// the source (its Services and its Events about them) at a time (the lease), and when that one is
// killed (kill -9) another takes over within 15 s, resuming each watch from its stored
// resourceVersion: every source write recorded once.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { HttpsClient } from '../helpers/https-client';
import { recorderEvent, repeatBody, STRATEGIC_MERGE_PATCH } from '../helpers/recorder-event';
import { describePostgres } from '../helpers/postgres';
import { buildDist, removeBuild, type ServerProcess, startServerProcess } from '../helpers/server-process';
import { startTestServer, type TestServer } from '../helpers/test-server';

const H = '/apis/history.svctrail.io/v1alpha1';

interface Replica {
  process: ServerProcess;
  client: HttpsClient;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const leads = async (replica: Replica) => /^svctrail_mirror_leader 1$/m.test((await replica.client.get('/metrics')).text);

/** Each Event write in a history, oldest first: the Event, what happened, its count, and the source's resourceVersion of it. */
async function eventWrites(client: HttpsClient, sourceRv: (o: any) => string): Promise<string[]> {
  const items = (await client.get(`${H}/namespaces/ha/events?limit=5000`)).json.items as any[];
  return items.map((o) => `${o.event.name} ${o.happened} ${o.count} ${sourceRv(o)}`);
}

async function ingressSequence(client: HttpsClient): Promise<string[]> {
  const items = (await client.get(`${H}/namespaces/ha/services/lb/changes?limit=5000`)).json.items as any[];
  return items.flatMap((c) => c.events.filter((e: any) => e.type === 'LoadBalancerIngressChanged').map((e: any) => e.data.ingress[0]?.ip ?? ''));
}

describePostgres('mirror replicas on PostgreSQL', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'svctrail-mirror-replicas-'));
  let source: TestServer;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    buildDist();
    source = await startTestServer();
  }, 180_000);

  afterAll(async () => {
    for (const r of replicas) {
      r.process.child.kill('SIGKILL');
      await r.process.exited;
    }
    await source?.stop();
    removeBuild();
    rmSync(root, { recursive: true, force: true });
  });

  const start = async (n: number, kubeconfig: string): Promise<Replica> => {
    const dataDir = join(root, `replica-${n}`);
    const process = await startServerProcess(['--data-dir', dataDir, '--storage', database().url, '--mirror', kubeconfig, '--log-level', 'warn']);
    const client = new HttpsClient(process.url, { ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'), token: readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0] });
    const replica = { process, client };
    replicas.push(replica);
    return replica;
  };

  /** An Event about the Service created (count 1) or repeated (count > 1) at the source. */
  const eventAboutLb = async (name: string, count: number) => {
    const res =
      count === 1
        ? await source.client.post('/api/v1/namespaces/ha/events', recorderEvent('ha', name, { kind: 'Service', name: 'lb' }))
        : await source.client.request('PATCH', `/api/v1/namespaces/ha/events/${name}`, { body: repeatBody(count), contentType: STRATEGIC_MERGE_PATCH });
    expect(res.status).toBeLessThan(300);
  };

  const setIngress = async (ip: string) => {
    const current = (await source.client.get('/api/v1/namespaces/ha/services/lb')).json;
    const res = await source.client.put('/api/v1/namespaces/ha/services/lb/status', { ...current, status: { loadBalancer: { ingress: [{ ip }] } } });
    expect(res.status).toBe(200);
  };

  it('records with one replica at a time, serves reads from all, and hands over within 15 s of a kill -9, recording every write (Services and Events) once', async () => {
    const kubeconfig = join(root, 'source.kubeconfig');
    writeFileSync(kubeconfig, renderKubeconfig({ server: source.server.url, caPem: source.ca, user: { token: source.adminToken }, userName: 'admin' }));
    expect((await source.client.post('/api/v1/namespaces/ha/services', { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } })).status).toBe(201);
    const a = await start(0, kubeconfig);
    const b = await start(1, kubeconfig);
    await until(async () => (await a.client.get('/api/v1/namespaces/ha/services/lb')).status === 200, 'the first list', 30_000);
    await until(async () => (await leads(a)) !== (await leads(b)), 'exactly one leader', 15_000);
    const [leader, standby] = (await leads(a)) ? [a, b] : [b, a];
    // Both serve what is recorded; the standby is ready (the leader records for both).
    expect((await standby.client.get('/readyz')).text).toBe('ok');

    for (let i = 1; i <= 20; i++) await setIngress(`198.51.100.${i}`);
    for (const name of ['lb.e1', 'lb.e2']) await eventAboutLb(name, 1);
    await until(async () => (await ingressSequence(standby.client)).length === 20, 'the writes recorded before the kill', 30_000);
    await until(async () => (await eventWrites(standby.client, () => '')).length === 2, 'the Events recorded before the kill', 30_000);

    // Writes keep coming while the leader dies.
    const writes = (async () => {
      for (let i = 21; i <= 60; i++) {
        await setIngress(`198.51.100.${i}`);
        // Each Event repeated once per round, and a new one every tenth.
        for (const name of ['lb.e1', 'lb.e2']) await eventAboutLb(name, i - 19);
        if (i % 10 === 0) await eventAboutLb(`lb.e${i}`, 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    leader.process.child.kill('SIGKILL');
    await leader.process.exited;
    const killedAt = Date.now();
    await until(() => leads(standby), 'the standby to take over', 15_000);
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    await writes;
    const expected = await ingressSequence(source.client);
    await until(async () => (await ingressSequence(standby.client)).length >= expected.length, 'every write recorded', 30_000);
    expect(await ingressSequence(standby.client)).toEqual(expected);
    const expectedEvents = await eventWrites(source.client, (o) => o.metadata.resourceVersion);
    expect(expectedEvents).toHaveLength(2 + 40 * 2 + 4);
    await until(async () => (await eventWrites(standby.client, () => '')).length >= expectedEvents.length, 'every Event write recorded', 30_000);
    expect(await eventWrites(standby.client, (o) => o.source?.resourceVersion)).toEqual(expectedEvents);
  }, 180_000);
});
