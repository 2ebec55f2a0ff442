// Three replicas on one PostgreSQL database: one leads the writes (the write_leader row names it)
// and the other two forward theirs to it (store/ports/write-leadership.ts). A forwarded write is
// answered as the leader answers it, recorded as the client's own (user, request id), and only the
// leader appends. Nobody else can use the forwarding headers. When the leader is killed, the
// others write again by themselves, and one of them takes the lead.
import { Client } from 'pg';
import { describePrivatePostgres } from '../helpers/postgres-cluster';
import { type ReplicaProcess, type ReplicaSet, startReplicas } from '../helpers/replica-processes';
import { buildDist, removeBuild } from '../helpers/server-process';

type Replica = ReplicaProcess;

const svc = (name: string) => ({ metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
const NS = '/api/v1/namespaces/forwarded/services';

/** Polls until `check` gives a value; the test's own timeout bounds it (no timed assertion). */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A counter's value in a replica's /metrics (0 when it has no sample yet). */
async function counter(replica: Replica, sample: string): Promise<number> {
  const text = (await replica.client.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

const appended = (replica: Replica) => counter(replica, 'svctrail_events_appended_total{type="LoadBalancerIngressChanged"}');
const answered = (replica: Replica) => counter(replica, 'svctrail_writes_forwarded_total{outcome="answered"}');

describePrivatePostgres('replicas that forward their writes to the write leader', (database) => {
  let set: ReplicaSet | undefined;
  let replicas: Replica[] = [];
  let db: Client;

  const leaderUrl = async () => (await db.query<{ url: string }>('SELECT url FROM write_leader WHERE id = 1')).rows[0]?.url;
  const leader = () => until(async () => leaderOf(await leaderUrl()));
  const leaderOf = (url: string | undefined) => replicas.find((r) => r.process.url === url && r.process.child.exitCode === null && r.process.child.signalCode === null);

  beforeAll(async () => {
    buildDist();
    set = await startReplicas(database().url, ['a', 'b', 'c'], ['--replica-url', 'auto']);
    replicas = set.replicas;
    db = new Client({ connectionString: database().url });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await set?.stop();
    removeBuild();
  }, 60_000);

  it('a write made through a follower is run by the leader, answered as the leader answers it, and recorded as the client made it', async () => {
    const lead = await leader();
    const followers = replicas.filter((r) => r !== lead);
    // Each follower learns of the leader within its poll (2 s).
    for (const follower of followers) await until(async () => ((await answeredAfterWrite(follower, 'probe')) > 0 ? true : undefined));
    const before = { lead: await appended(lead), followers: await Promise.all(followers.map(appended)), answered: await answered(followers[1]) };

    const created = await followers[1].client.post(NS, svc('web'));
    expect(created.status).toBe(201);
    const updated = await followers[1].client.put(`${NS}/web/status`, { ...created.json, status: { loadBalancer: { ingress: [{ ip: '192.0.2.20' }] } } });
    expect(updated.status).toBe(200);
    expect(updated.json.status.loadBalancer.ingress).toEqual([{ ip: '192.0.2.20', ipMode: 'VIP' }]);
    // Relayed: every replica reads what the follower answered.
    for (const replica of replicas) expect((await replica.client.get(`${NS}/web`)).text).toBe(updated.text);
    expect(await answered(followers[1])).toBe(before.answered + 2);
    // Only the leader appended the write.
    expect(await appended(lead)).toBe(before.lead + 1);
    expect(await Promise.all(followers.map(appended))).toEqual(before.followers);
    // Recorded with the client's user and the request id the follower answered with.
    const history = await lead.client.get(`/apis/history.svctrail.io/v1alpha1/namespaces/forwarded/services/web/changes`);
    const change = history.json.items.find((item: any) => item.metadata.resourceVersion === updated.json.metadata.resourceVersion);
    expect(change.actor.requestId).toBe(updated.headers['audit-id']);
    expect(change.actor.user).toBe('admin');

    // The leader's refusals come back as they are: a stale resourceVersion, an invalid object.
    const stale = await followers[0].client.put(`${NS}/web/status`, { ...created.json, status: { loadBalancer: { ingress: [{ ip: '192.0.2.21' }] } } });
    expect([stale.status, stale.json.reason]).toEqual([409, 'Conflict']);
    const invalid = await followers[0].client.post(NS, { metadata: { name: 'Not_A_Name' }, spec: { ports: [{ port: 80 }] } });
    expect([invalid.status, invalid.json.reason]).toEqual([422, 'Invalid']);
    // A protobuf answer is relayed byte for byte with its content type.
    const proto = await followers[0].client.get(`${NS}/web`, { accept: 'application/vnd.kubernetes.protobuf' });
    const protoPut = await followers[0].client.request('PUT', `${NS}/web/status`, {
      body: { ...updated.json, status: { loadBalancer: { ingress: [{ ip: '192.0.2.22' }] } } },
      accept: 'application/vnd.kubernetes.protobuf',
    });
    expect(protoPut.status).toBe(200);
    expect(protoPut.headers['content-type']).toBe(proto.headers['content-type']);
  });

  it('nobody but a replica can speak through the forwarding headers', async () => {
    const lead = await leader();
    const masters = Buffer.from(JSON.stringify({ name: 'mallory', groups: ['system:masters'] })).toString('base64url');
    const forged = { 'x-svctrail-replica-token': 'guessed', 'x-svctrail-forwarded-identity': masters, 'x-svctrail-forwarded-request-id': 'forged' };
    // A wrong token: refused unrun, with or without credentials.
    for (const token of [undefined, null] as const) {
      const refused = await lead.client.post(NS, svc('forged'), { headers: forged, ...(token === null ? { token: null } : {}) });
      expect([refused.status, refused.json.reason]).toEqual([421, 'MisdirectedRequest']);
    }
    // The identity header alone is never read: no credentials is still 401.
    const { 'x-svctrail-replica-token': _token, ...identityOnly } = forged;
    expect((await lead.client.post(NS, svc('forged'), { headers: identityOnly, token: null })).status).toBe(401);
    expect((await lead.client.get(`${NS}/forged`)).status).toBe(404);
  });

  it('when the leader is frozen, the others write by themselves within a second, and forward to it again once it answers', async () => {
    const lead = await leader();
    const followers = replicas.filter((r) => r !== lead);
    for (const follower of followers) await until(async () => ((await answeredAfterWrite(follower, 'warm')) > 0 ? true : undefined));
    lead.process.child.kill('SIGSTOP');
    const frozenAt = Date.now();
    const outcomes: string[] = [];
    try {
      // A write sent before the leader is suspect waits for it (the client gives up: outcome
      // unknown); those after it are written by the follower itself.
      for (let i = 0; Date.now() - frozenAt < 7_000; i++) {
        const created = await followers[i % 2].client.post(NS, svc(`frozen-${i}`), { timeoutMs: 2_500 }).catch(() => undefined);
        outcomes.push(created === undefined ? 'no answer' : String(created.status));
      }
    } finally {
      lead.process.child.kill('SIGCONT');
    }
    expect([outcomes.filter((o) => o === 'no answer').length <= 2, outcomes]).toEqual([true, outcomes]);
    expect(outcomes.filter((o) => o === '201').length).toBeGreaterThan(3);
    expect(outcomes.every((o) => o === '201' || o === 'no answer')).toBe(true);
    // Thawed, it answers the probe, and the followers forward to it again.
    for (const follower of followers) {
      const before = await answered(follower);
      await until(async () => ((await answeredAfterWrite(follower, 'thawed')) > before ? true : undefined));
    }
  });

  it('when the leader loses its lease but lives on (PostgreSQL ended its session), every write goes on, and a leader is announced again with a new token', async () => {
    const lead = await leader();
    const followers = replicas.filter((r) => r !== lead);
    for (const follower of followers) await until(async () => ((await answeredAfterWrite(follower, 'leased')) > 0 ? true : undefined));
    const announced = async () => (await db.query<{ token: string }>('SELECT token FROM write_leader WHERE id = 1')).rows[0].token;
    const before = await announced();
    // The session holding the write leader's advisory lock (a bigint key: its high and low halves in classid and objid).
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = 8319395769340735590`,
    );
    expect(Number(rows[0].n)).toBe(1);
    // Every write goes on: refused unrun by the old leader (421) and written locally, or forwarded to the new one.
    for (let i = 0; i < 20; i++) {
      const created = await followers[i % 2].client.post(NS, svc(`relet-${i}`));
      expect([i, created.status]).toEqual([i, 201]);
    }
    const after = await until(async () => {
      const token = await announced();
      return token !== before ? token : undefined;
    });
    expect(after).not.toBe(before);
    for (const follower of followers) {
      const count = await answered(follower);
      await until(async () => ((await answeredAfterWrite(follower, 'relet')) > count ? true : undefined));
    }
  });

  it('when the leader is killed, the others write again by themselves and one of them takes the lead', async () => {
    const lead = await leader();
    const followers = replicas.filter((r) => r !== lead);
    lead.process.child.kill('SIGKILL');
    await lead.process.exited;
    // Every write through the others is written there (the leader is not reached: nothing was
    // sent) or by the new leader. Only a write sent on a connection the leader had open when it
    // died may be answered "may or may not have been stored" (a 500, as a lost COMMIT is).
    for (let i = 0; i < 20; i++) {
      const created = await followers[i % 2].client.post(NS, svc(`after-${i}`));
      if (created.status === 500) expect(created.json.message).toMatch(/may or may not have been stored/);
      else expect([i, created.status]).toEqual([i, 201]);
    }
    const fellBack = await Promise.all(followers.map((f) => Promise.all(['not_sent', 'lost'].map((o) => counter(f, `svctrail_writes_forwarded_total{outcome="${o}"}`)))));
    expect(fellBack.flat().reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const next = await until(async () => leaderOf(await leaderUrl()));
    expect(followers).toContain(next);
    const other = followers.find((r) => r !== next)!;
    const before = await answered(other);
    const written = await until(async () => {
      const created = await other.client.post(NS, svc(`led-${Date.now()}`));
      expect(created.status).toBe(201);
      return (await answered(other)) > before ? created : undefined;
    });
    expect((await next.client.get(`${NS}/${written.json.metadata.name}`)).text).toBe(written.text);
  });
});

/** Writes one Service through `replica` and gives its count of writes the leader answered. */
async function answeredAfterWrite(replica: Replica, prefix: string): Promise<number> {
  const created = await replica.client.post(NS, svc(`${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`));
  if (created.status !== 201) throw new Error(`probe write answered ${created.status}: ${created.text}`);
  return answered(replica);
}
