// Replicas on one PostgreSQL database under the faults that used to stop them all: a replica
// frozen in the middle of its writes (SIGSTOP: a long GC, a stopped VM), the database killing a
// replica's sessions, and a PostgreSQL restart. What each must keep: the other replica writes
// on with every write answered within the bound a client waits (5 s), the frozen one answers its
// pending writes truthfully when it wakes (a success only for a stored write, "not stored" only
// for one that is not), no acknowledged write is lost, and writes resume by themselves.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { HttpsClient, type RawResponse } from '../helpers/https-client';
import { describePrivatePostgres } from '../helpers/postgres-cluster';
import { ensureDataDir } from '../../src/tls/data-dir';
import { buildDist, removeBuild, type ServerProcess, startServerProcess } from '../helpers/server-process';
import { decodeStoredText } from '../../src/store/stored-text-codec';

interface Replica {
  name: string;
  process: ServerProcess;
  client: HttpsClient;
}

/** How long a client waits for any one answer of a replica that is not frozen. */
const CLIENT_PATIENCE_MS = 5_000;
/** How long the frozen replica stays stopped (the 20 s in the long run). */
const FREEZE_MS = Number(process.env.SVCTRAIL_FREEZE_SECONDS ?? 8) * 1000;

const lb = (name: string) => ({ metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });

/** A status write whose ingress IP names it: unique per attempt, so the store says whether it landed. */
const withIngress = (object: any, ip: string) => ({ ...object, status: { loadBalancer: { ingress: [{ ip }] } } });

/** What a write's answer says of it: stored (2xx), not stored, or it may or may not have been. */
function verdict(response: RawResponse): 'stored' | 'not-stored' | 'unknown' | 'refused' {
  if (response.status >= 200 && response.status < 300) return 'stored';
  const message = String(response.json?.message ?? '');
  if (/may or may not have been stored/.test(message)) return 'unknown';
  if (/was not stored|ServerTimeout/.test(message) || response.json?.reason === 'ServerTimeout') return 'not-stored';
  // 409 (a stale resourceVersion), 422 (refused by validation): decided, nothing stored.
  return 'refused';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describePrivatePostgres('replicas under faults: frozen, killed sessions, a restart', (database, cluster) => {
  const root = mkdtempSync(join(tmpdir(), 'svctrail-replica-faults-'));
  const replicas: Replica[] = [];
  let db: Client;

  const startReplica = async (name: string): Promise<Replica> => {
    const dataDir = join(root, name);
    const process = await startServerProcess(['--data-dir', dataDir, '--storage', database().url, '--log-level', 'warn']);
    const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
    const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0];
    return { name, process, client: new HttpsClient(process.url, { ca, token }) };
  };

  /** The test's own session; a restart ends it (heard, not thrown), and it is opened again. */
  const connect = async (): Promise<Client> => {
    const client = new Client({ connectionString: database().url });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };

  // Stored texts (src/store/stored-text-codec.ts): read back and decoded, not searched in SQL.
  const storedRevisionsWith = async (ip: string): Promise<number> =>
    (await db.query<{ object: Buffer }>('SELECT object FROM service_revisions')).rows.filter((r) => decodeStoredText(r.object).includes(`"ip":"${ip}"`)).length;

  beforeAll(async () => {
    buildDist();
    await ensureDataDir({ dataDir: join(root, 'a'), now: () => new Date() });
    cpSync(join(root, 'a'), join(root, 'b'), { recursive: true });
    replicas.push(await startReplica('a'), await startReplica('b'));
    db = await connect();
  }, 180_000);

  afterAll(async () => {
    cluster().start();
    await db?.end().catch(() => undefined);
    for (const replica of replicas) {
      if (replica.process.child.exitCode === null && replica.process.child.signalCode === null) {
        replica.process.child.kill('SIGCONT');
        replica.process.child.kill('SIGTERM');
        await replica.process.exited;
      }
    }
    rmSync(root, { recursive: true, force: true });
    removeBuild();
  }, 60_000);

  const [a, b] = [0, 1].map((i) => () => replicas[i]);

  /** Loads not stopped yet: a test that failed before stopping its load must not leave it running (after the replicas stop, its writers would spin on refused connections and keep jest from exiting). */
  const running = new Set<{ stop(): Promise<void> }>();
  afterEach(async () => {
    for (const load of running) await load.stop();
  });

  /** Status writers on `replica`, each on its own Service, until `stop()`; every answer kept. */
  function statusLoad(replica: Replica, ns: string, names: string[]) {
    const answers: { ip: string; verdict: ReturnType<typeof verdict> | 'no-answer'; rv?: number }[] = [];
    let stopped = false;
    let n = 0;
    const workers = names.map(async (name, w) => {
      const path = `/api/v1/namespaces/${ns}/services/${name}`;
      while (!stopped) {
        const ip = `10.${w}.${(n >> 8) & 255}.${n++ & 255}`;
        let response: RawResponse;
        try {
          const current = await replica.client.get(path);
          response = await replica.client.put(`${path}/status`, withIngress(current.json, ip));
        } catch {
          answers.push({ ip, verdict: 'no-answer' });
          continue;
        }
        answers.push({ ip, verdict: verdict(response), rv: response.status === 200 ? Number(response.json.metadata.resourceVersion) : undefined });
      }
    });
    const load = {
      answers,
      stop: async () => {
        stopped = true;
        running.delete(load);
        await Promise.all(workers);
      },
    };
    running.add(load);
    return load;
  }

  /** Every stored answer is in the store at its resourceVersion; every "not stored" one is nowhere. */
  async function expectTruthful(answers: { ip: string; verdict: string; rv?: number }[]): Promise<void> {
    for (const answer of answers) {
      if (answer.verdict === 'stored') {
        const { rows } = await db.query<{ object: Buffer }>('SELECT object FROM service_revisions WHERE resource_version = $1', [answer.rv]);
        expect([answer.ip, rows.length === 1 && decodeStoredText(rows[0].object).includes(`"ip":"${answer.ip}"`)]).toEqual([answer.ip, true]);
      } else if (answer.verdict === 'not-stored') {
        expect([answer.ip, await storedRevisionsWith(answer.ip)]).toEqual([answer.ip, 0]);
      }
    }
  }

  it('a replica frozen in the middle of its writes makes no write of another replica wait past 5 s, and answers its own truthfully when it wakes', async () => {
    const ns = 'freeze';
    const names = Array.from({ length: 8 }, (_, i) => `hot-${i}`);
    for (const name of names) expect((await a().client.post(`/api/v1/namespaces/${ns}/services`, lb(name))).status).toBe(201);
    const load = statusLoad(a(), ns, names);
    await sleep(500);
    a().process.child.kill('SIGSTOP');
    const frozenAt = Date.now();
    const onB: string[] = [];
    try {
      // While a is frozen, b creates and updates; each answer must come within the client's patience.
      for (let i = 0; Date.now() - frozenAt < FREEZE_MS; i++) {
        const created = await b().client.post(`/api/v1/namespaces/${ns}/services`, lb(`during-${i}`), { timeoutMs: CLIENT_PATIENCE_MS });
        expect(created.status).toBe(201);
        const updated = await b().client.put(`/api/v1/namespaces/${ns}/services/during-${i}/status`, withIngress(created.json, `10.200.0.${i % 250}`), {
          timeoutMs: CLIENT_PATIENCE_MS,
        });
        expect(updated.status).toBe(200);
        onB.push(`during-${i}`);
      }
    } finally {
      a().process.child.kill('SIGCONT');
    }
    expect(onB.length).toBeGreaterThan(2);
    await sleep(1000);
    await load.stop();
    expect(load.answers.filter((x) => x.verdict === 'stored').length).toBeGreaterThan(10);
    await expectTruthful(load.answers);
    // And a goes on writing after it woke.
    const after = await a().client.post(`/api/v1/namespaces/${ns}/services`, lb('after-freeze'), { timeoutMs: CLIENT_PATIENCE_MS });
    expect(after.status).toBe(201);
  }, 180_000);

  it("the database ending a replica's sessions under write load: no acknowledged write lost, and the replica writes again within 10 s", async () => {
    const ns = 'terminated';
    const names = Array.from({ length: 6 }, (_, i) => `svc-${i}`);
    for (const name of names) expect((await a().client.post(`/api/v1/namespaces/${ns}/services`, lb(name))).status).toBe(201);
    const load = statusLoad(a(), ns, names);
    await sleep(500);
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'svctrail-%' AND pid <> pg_backend_pid()`,
    );
    expect(Number(rows[0].n)).toBeGreaterThan(0);
    const killedAt = Date.now();
    // The first write after the kill that is stored, on a fresh Service (not one under load).
    let recovered: number | undefined;
    for (let i = 0; recovered === undefined && Date.now() - killedAt < 10_000; i++) {
      const created = await a()
        .client.post(`/api/v1/namespaces/${ns}/services`, lb(`after-${i}`), { timeoutMs: CLIENT_PATIENCE_MS })
        .catch(() => undefined);
      if (created?.status === 201) recovered = Date.now() - killedAt;
      else await sleep(200);
    }
    await sleep(500);
    await load.stop();
    expect(recovered).toBeDefined();
    await expectTruthful(load.answers);
    expect(load.answers.filter((x) => x.verdict === 'stored').length).toBeGreaterThan(10);
  }, 120_000);

  it('a PostgreSQL restart under write load: every replica writes again within 10 s by itself, no acknowledged write lost', async () => {
    const ns = 'restart';
    const names = Array.from({ length: 4 }, (_, i) => `svc-${i}`);
    for (const name of names) expect((await a().client.post(`/api/v1/namespaces/${ns}/services`, lb(name))).status).toBe(201);
    const loads = [statusLoad(a(), ns, names.slice(0, 2)), statusLoad(b(), ns, names.slice(2))];
    await sleep(500);
    let restartedAt: number;
    try {
      cluster().stop();
    } finally {
      cluster().start();
      restartedAt = Date.now();
    }
    await db.end().catch(() => undefined);
    db = await connect();
    for (const replica of [a(), b()]) {
      let recovered = false;
      for (let i = 0; !recovered && Date.now() - restartedAt < 10_000; i++) {
        const created = await replica.client.post(`/api/v1/namespaces/${ns}/services`, lb(`${replica.name}-after-${i}`), { timeoutMs: CLIENT_PATIENCE_MS }).catch(() => undefined);
        recovered = created?.status === 201;
        if (!recovered) await sleep(200);
      }
      expect([replica.name, recovered]).toEqual([replica.name, true]);
    }
    await sleep(500);
    for (const load of loads) await load.stop();
    for (const load of loads) await expectTruthful(load.answers);
  }, 180_000);
});
