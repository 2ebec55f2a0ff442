// The PostgreSQL KubeEventWriteStore: Event writes decided on a snapshot and compared-and-appended
// under the append lock, in the same statement as the Service writes of the same turn. What
// only several replicas can break: two replicas writing one Event at once (both stored, one
// after the other; one creation; one expiry), and a write decided after an earlier write of the
// same name in its batch when another replica moved that name first.
import type { Logger } from 'pino';
import { ServiceWriteRunner } from '../../src/commands/service-write-runner';
import type { WriteRequestContext } from '../../src/commands/write-result';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { ClusterNetwork } from '../../src/config/cluster-network';
import { AlreadyExistsError } from '../../src/domain/errors/domain-errors';
import { decideKubeEventCreate, decideKubeEventDelete, decideKubeEventExpiry, decideKubeEventReplace } from '../../src/domain/kube-event/kube-event.decider';
import type { KubeEvent } from '../../src/domain/kube-event/kube-event.types';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import { ChangeFeed } from '../../src/feed/change-feed';
import { KubeEventWriteRunner } from '../../src/kube-events/commands/kube-event-write-runner';
import { EXPIRY_ACTOR } from '../../src/kube-events/kube-event-expiry.service';
import { LOGGER } from '../../src/observability/logging.module';
import { FixedClock } from '../../src/shared/clock';
import { eventDataText } from '../../src/store/packed-event-data';
import { StreamVersionConflictError } from '../../src/store/ports/stream-version-conflict-error';
import { APPEND_LOCK } from '../../src/store/postgres/pg-event-store';
import { PgAppendQueue } from '../../src/store/postgres/pg-append-queue';
import { PgKubeEventWriteStore } from '../../src/store/postgres/pg-kube-event-write-store';
import { PgServiceWriteStore } from '../../src/store/postgres/pg-service-write-store';
import { openPostgres, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { KubeEventLog } from '../../src/store/kube-event-log';
import { PgSqlReader } from '../../src/store/postgres/pg-sql-reader';
import type { SqlReader } from '../../src/store/sql/sql-reader';
import { type AppContext, createAppContext, deterministicIds } from '../helpers/app-context';
import { describePostgres } from '../helpers/postgres';
import { handlersOn, type ServiceHandlers } from '../helpers/service-handlers';

const START = '2026-01-02T03:04:05.000Z';

const as = (user: string): WriteRequestContext => ({ user, groups: ['ops'], userAgent: `${user}/1`, fieldManager: user, requestId: `${user}-req`, dryRun: false });

const recorderEvent = (name: string, overrides: Partial<KubeEvent> = {}): KubeEvent => ({
  metadata: { name, namespace: 'ev' },
  involvedObject: { kind: 'Service', namespace: 'ev', name: 'web', uid: 'svc-uid', apiVersion: 'v1' },
  reason: 'EnsuringLoadBalancer',
  message: 'Ensuring load balancer',
  source: { component: 'service-controller' },
  firstTimestamp: '2026-01-02T03:00:00Z',
  lastTimestamp: '2026-01-02T03:00:00Z',
  count: 1,
  type: 'Normal',
  reportingComponent: 'service-controller',
  reportingInstance: '',
  ...overrides,
});

/** One replica: its own pools, group commit, stores, clock and ids on the suite's database. */
interface Replica {
  handle: PostgresHandle;
  events: KubeEventWriteRunner;
  services: ServiceHandlers;
  /** Sizes of the statements its group commit sent. */
  batches: number[];
}

describePostgres('PostgreSQL Event write store', (database) => {
  let app: AppContext;
  const replicas: Replica[] = [];
  let a: Replica;
  let b: Replica;

  const replica = async (uidPrefix: string): Promise<Replica> => {
    const handle = await openPostgres(database().url);
    const clock = new FixedClock(new Date(START));
    const batches: number[] = [];
    const queue = new PgAppendQueue(handle.writePool, { committed: (size) => batches.push(size) });
    const ids = deterministicIds(3);
    let uid = 0;
    ids.newUid = () => `${uidPrefix}-${++uid}`;
    const logger = app.app.get<Logger>(LOGGER);
    const events = new KubeEventWriteRunner(new PgKubeEventWriteStore(handle.writePool, clock, queue), new ChangeFeed(), ids, app.app.get<AppConfig>(APP_CONFIG), logger);
    const services = handlersOn(new ServiceWriteRunner(new PgServiceWriteStore(handle.writePool, clock, undefined, queue), new ChangeFeed(), app.app.get(ClusterNetwork), ids, logger), ids);
    const r = { handle, events, services, batches };
    replicas.push(r);
    return r;
  };

  const create = (r: Replica, name: string, overrides: Partial<KubeEvent> = {}) =>
    r.events.run(
      {
        namespace: 'ev',
        name,
        verb: 'create',
        decide: (state, ctx) => decideKubeEventCreate({ kind: 'CreateKubeEvent', namespace: 'ev', object: recorderEvent(name, overrides), api: 'v1' }, state, ctx),
      },
      as('recorder'),
    );
  /** The recorder's repeat: the live Event with a new count and message, no resourceVersion precondition. */
  const repeat = (r: Replica, name: string, message: string) =>
    r.events.run(
      {
        namespace: 'ev',
        name,
        verb: 'patch',
        decide: (state, ctx) => {
          const object = { ...state.object!, count: (state.object?.count ?? 0) + 1, message, metadata: { ...state.object!.metadata, resourceVersion: undefined } };
          return decideKubeEventReplace({ kind: 'ReplaceKubeEvent', namespace: 'ev', name, object, api: 'v1', patch: true }, state, ctx);
        },
      },
      as('recorder'),
    );
  const expire = (r: Replica, name: string, resourceVersion: string) =>
    r.events.run(
      { namespace: 'ev', name, verb: 'delete', decide: (state) => decideKubeEventExpiry({ kind: 'ExpireKubeEvent', namespace: 'ev', name, resourceVersion }, state) },
      { ...as(EXPIRY_ACTOR), groups: ['system:masters'] },
    );
  const facts = async (uid: string) =>
    (
      await a.handle.pool.query<{ type: string; stream_version: number; position: number; data: string; packed_data: Buffer | null }>(
        'SELECT type, stream_version, position, data, packed_data FROM events WHERE stream_id = $1 ORDER BY position',
        [uid],
      )
    ).rows.map(({ packed_data, ...row }) => ({ ...row, data: eventDataText({ plainData: row.data, packedData: packed_data }) }));
  const live = async (name: string) =>
    (
      await a.handle.pool.query<{ object: string; stream_version: number; resource_version: number }>(
        'SELECT object, stream_version, resource_version FROM kube_events WHERE namespace = $1 AND name = $2',
        ['ev', name],
      )
    ).rows[0];

  beforeAll(async () => {
    app = await createAppContext();
    a = await replica('a');
    b = await replica('b');
  });
  afterAll(async () => {
    for (const r of replicas) await r.handle.close();
    await app?.close();
  });

  it('puts the Service and Event writes of one turn in one statement, at consecutive resourceVersions in arrival order', async () => {
    a.batches.length = 0;
    const service = applyServiceDefaults({ metadata: { name: 'web', namespace: 'ev' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }] }, status: { loadBalancer: {} } });
    const [first, svc, second] = await Promise.all([create(a, 'web.0001'), a.services.execute({ kind: 'CreateService', namespace: 'ev', object: service }, as('creator')), create(a, 'web.0002')]);
    expect(a.batches).toEqual([3]);
    const rvs = [first.object, svc.object, second.object].map((o) => Number(o.metadata.resourceVersion));
    // Each kind in arrival order; the statement appends the Service writes first.
    expect(rvs[2]).toBe(rvs[0] + 1);
    expect(new Set(rvs).size).toBe(3);
    expect(Math.max(...rvs) - Math.min(...rvs)).toBe(2);
    // The live row is the answered object, as GET serves it.
    expect((await live('web.0001')).object).toBe(JSON.stringify(first.object));
  });

  it('keeps both repeats two replicas write to one Event at once: the later is decided again on the earlier', async () => {
    const created = await create(a, 'web.0003');
    const [x, y] = await Promise.all([repeat(a, 'web.0003', 'from a'), repeat(b, 'web.0003', 'from b')]);
    const answered = [x.object, y.object].sort((p, q) => Number(p.metadata.resourceVersion) - Number(q.metadata.resourceVersion));
    expect(answered.map((o) => o.count)).toEqual([2, 3]);
    const log = await facts(created.object.metadata.uid!);
    expect(log.map((f) => [f.type, f.stream_version])).toEqual([
      ['KubeEventCreated', 1],
      ['KubeEventUpdated', 2],
      ['KubeEventUpdated', 3],
    ]);
    expect((await live('web.0003')).object).toBe(JSON.stringify(answered[1]));
  });

  it('creates one Event of a name two replicas create at once; the other is AlreadyExists', async () => {
    const outcomes = await Promise.allSettled([create(a, 'web.0004'), create(b, 'web.0004')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(AlreadyExistsError);
    const { rows } = await a.handle.pool.query(`SELECT 1 FROM events WHERE name = 'web.0004'`);
    expect(rows).toHaveLength(1);
  });

  it('expires an Event once when every replica sweeps it: the others find nothing left and answer quietly', async () => {
    const created = await create(a, 'web.0005');
    const rv = created.object.metadata.resourceVersion!;
    const headBefore = (await a.handle.pool.query<{ head: number }>('SELECT max(position) AS head FROM events')).rows[0].head;
    const answers = await Promise.all([expire(a, 'web.0005', rv), expire(b, 'web.0005', rv), expire(a, 'web.0005', rv)]);
    // One ended it; the others resolve with nothing written (never a rejection the sweep would log).
    expect(answers.filter((r) => r.ended)).toHaveLength(1);
    expect((await facts(created.object.metadata.uid!)).map((f) => f.type)).toEqual(['KubeEventCreated', 'KubeEventExpired']);
    expect((await a.handle.pool.query<{ head: number }>('SELECT max(position) AS head FROM events')).rows[0].head).toBe(headBefore + 1);
    expect(await live('web.0005')).toBeUndefined();
    const { rows } = await a.handle.pool.query(`SELECT uid FROM kube_event_occurrences WHERE name = 'web.0005' ORDER BY resource_version`);
    expect(rows).toEqual([{ uid: created.object.metadata.uid }, { uid: created.object.metadata.uid }]);
  });

  it('refuses a write whose step read a stale stream version, and stores nothing', async () => {
    await create(a, 'web.0006');
    const head = (await a.handle.pool.query<{ head: number }>('SELECT max(position) AS head FROM events')).rows[0].head;
    const store = new PgKubeEventWriteStore(a.handle.writePool, new FixedClock(new Date(START)), new PgAppendQueue(a.handle.writePool));
    const stale = store.write('ev', 'web.0006', (f) => ({
      append: {
        streamId: f.state.object!.metadata.uid!,
        expectedVersion: f.state.streamVersion - 1,
        fact: { type: 'KubeEventDeleted', data: { object: f.state.object! } },
        metadata: { ...as('x'), verb: 'delete', subresource: '', recordedAt: f.now.toISOString() },
        before: f.state,
      },
      finish: () => 'stored',
    }));
    await expect(stale).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect((await a.handle.pool.query<{ head: number }>('SELECT max(position) AS head FROM events')).rows[0].head).toBe(head);
  });

  it('decides again every write of a name in a batch when another replica moved that name before the batch got the lock', async () => {
    const created = await create(a, 'web.0007');
    const uid = created.object.metadata.uid!;
    const waiting = async (n: number) => {
      for (;;) {
        const { rows } = await a.handle.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
        if (rows[0].n >= n) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // This connection holds the append lock: b's repeat, then a's two repeats, decide on stream
    // version 1 and queue for it in that order; b appends first.
    const holder = await a.handle.pool.connect();
    let writes: Promise<unknown>[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
      const fromB = repeat(b, 'web.0007', 'from b');
      await waiting(1);
      const fromA = [repeat(a, 'web.0007', 'a first'), repeat(a, 'web.0007', 'a second')];
      await waiting(2);
      writes = [fromB, ...fromA];
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    await Promise.all(writes);
    const log = await facts(uid);
    // a's second write was decided after its first, which moved: it must not be appended as if the first were.
    expect(log.map((f) => [f.stream_version, (JSON.parse(f.data) as { object: KubeEvent }).object.message])).toEqual([
      [1, 'Ensuring load balancer'],
      [2, 'from b'],
      [3, 'a first'],
      [4, 'a second'],
    ]);
    expect(JSON.parse((await live('web.0007')).object)).toMatchObject({ count: 4, message: 'a second' });
  });

  it('deletes an Event and lets its name be created again as a new incarnation', async () => {
    const first = await create(a, 'web.0008');
    const deleted = await b.events.run(
      { namespace: 'ev', name: 'web.0008', verb: 'delete', decide: (state, ctx) => decideKubeEventDelete({ kind: 'DeleteKubeEvent', namespace: 'ev', name: 'web.0008' }, state, ctx) },
      as('operator'),
    );
    expect(deleted.ended).toBe(true);
    expect(await live('web.0008')).toBeUndefined();
    const again = await create(b, 'web.0008', { reason: 'EnsuredLoadBalancer' });
    expect(again.object.metadata.uid).not.toBe(first.object.metadata.uid);
    expect(await live('web.0008')).toMatchObject({ stream_version: 1, resource_version: Number(again.object.metadata.resourceVersion) });
    const { rows } = await a.handle.pool.query<{ reason: string }>(`SELECT reason FROM kube_event_occurrences WHERE name = 'web.0008' ORDER BY resource_version`);
    expect(rows.map((r) => r.reason)).toEqual(['EnsuringLoadBalancer', 'EnsuringLoadBalancer', 'EnsuredLoadBalancer']);
  });

  it('reads a LIST page of written Events as of its snapshot when an Event is written between its queries: each Event once, as it was', async () => {
    const created = await create(a, 'web.0009');
    const head = (await a.handle.pool.query<{ head: number }>('SELECT max(position) AS head FROM events')).rows[0].head;
    // A reader that lets another replica's repeat of the Event commit right after the page read the live Events table.
    const pg = new PgSqlReader(() => a.handle.pool);
    let between: (() => Promise<unknown>) | undefined = () => repeat(b, 'web.0009', 'repeated meanwhile');
    const racing: SqlReader = {
      dialect: pg.dialect,
      async all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
        const rows = await pg.all<T>(sql, params);
        const write = sql.includes('FROM kube_events') ? between : undefined;
        between = write ? undefined : between;
        await write?.();
        return rows;
      },
      async one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
        return (await racing.all<T>(sql, params))[0];
      },
    };
    const page = (await new KubeEventLog(racing).writtenPage({ namespace: 'ev', afterPosition: 0, untilPosition: head, limit: 100 }))!;
    expect(between).toBeUndefined();
    const ours = page.filter((e) => (JSON.parse(e.json) as KubeEvent).metadata.name === 'web.0009');
    expect(ours).toEqual([{ position: Number(created.object.metadata.resourceVersion), json: JSON.stringify(created.object) }]);
    expect(new Set(page.map((e) => e.position)).size).toBe(page.length);
  });

  it('leaves the log without holes: every position from 1 to the head, each Event fact its own resourceVersion', async () => {
    const { rows } = await a.handle.pool.query<{ position: number; resource_version: number; type: string }>('SELECT position, resource_version, type FROM events ORDER BY position');
    expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
    for (const row of rows.filter((r) => r.type.startsWith('KubeEvent'))) expect(row.resource_version).toBe(row.position);
  });
});
