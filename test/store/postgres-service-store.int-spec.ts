// The PostgreSQL ServiceWriteStore and ServiceReadStore against the SQLite engine: the same
// commands, through the same command handlers (the same pure write steps), with the same
// clock and ids, must give the same answers, the same reads (live, as of every resourceVersion,
// paged, in a snapshot) and the same projection rows. Then what only several replicas can
// break: names, cluster IPs and node ports stay unique across two pools writing at once.
import { repeatedText } from '../../src/store/sql/event-columns';
import type { Logger } from 'pino';
import { KubernetesServiceBootstrap } from '../../src/commands/kubernetes-service.bootstrap';
import { ServiceWriteRunner } from '../../src/commands/service-write-runner';
import { LOGGER } from '../../src/observability/logging.module';
import type { WriteRequestContext, WriteResult } from '../../src/commands/write-result';
import { type AppConfig, APP_CONFIG } from '../../src/config/app-config';
import { ClusterNetwork } from '../../src/config/cluster-network';
import { AlreadyExistsError, DomainError } from '../../src/domain/errors/domain-errors';
import type { ServiceCommand } from '../../src/domain/service.commands';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import type { Condition, Service } from '../../src/domain/service.types';
import { ChangeFeed } from '../../src/feed/change-feed';
import { FixedClock } from '../../src/shared/clock';
import type { DatabaseHandle } from '../../src/store/database';
import { StreamVersionConflictError } from '../../src/store/ports/stream-version-conflict-error';
import { APPEND_LOCK } from '../../src/store/postgres/pg-event-store';
import { PgServiceReadStore } from '../../src/store/postgres/pg-service-read-store';
import { PgServiceWriteStore } from '../../src/store/postgres/pg-service-write-store';
import { openPostgres, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { SERVICE_READ_STORE } from '../../src/store/ports/service-read-store';
import type { ServiceReads, ServiceReadStore } from '../../src/store/ports/service-read-store';
import { DATABASE } from '../../src/store/ports/store.tokens';
import { WriteNotStoredError } from '../../src/store/ports/write-not-stored-error';
import { type AppContext, createAppContext, deterministicIds } from '../helpers/app-context';
import { describePostgres } from '../helpers/postgres';
import { handlersOf, handlersOn, type ServiceHandlers } from '../helpers/service-handlers';

const SEED = 7;
const START = '2026-01-02T03:04:05.000Z';

const as = (user: string): WriteRequestContext => ({ user, groups: ['ops'], userAgent: `${user}/1`, fieldManager: user, requestId: `${user}-req`, dryRun: false });

const service = (name: string, namespace: string, type: 'LoadBalancer' | 'ClusterIP' | 'NodePort', extra: Partial<Service['spec']> = {}): Service =>
  applyServiceDefaults({
    metadata: { name, namespace, labels: { app: name } },
    spec: { type, selector: { app: name }, ports: [{ port: 80 }], ...extra },
    status: { loadBalancer: {} },
  });

const condition = (type: string, status: string, reason: string): Condition => ({
  type,
  status,
  lastTransitionTime: '2026-01-01T00:00:00Z',
  reason,
  message: `${type} is ${status}`,
});

/** One engine as the command pipeline sees it: the command handlers on its store, its reads, its clock. */
interface Engine {
  handlers: ServiceHandlers;
  reads: ServiceReadStore;
  clock: FixedClock;
}

interface PgReplica extends Engine {
  handle: PostgresHandle;
}

/** Every read of the port, over the whole history, as plain data to compare. */
async function everyRead(reads: ServiceReadStore, names: readonly (readonly [string, string])[]) {
  const head = await reads.head();
  const out: Record<string, unknown> = { head };
  const pages = async (r: ServiceReads, asOf: number | undefined, namespace?: string) => {
    const rows = [];
    for (let after: { namespace: string; name: string } | undefined; ;) {
      const page = await r.listPage({ namespace, after, asOf, limit: 2 });
      rows.push(page);
      if (page.length < 2) break;
      after = page[page.length - 1];
    }
    return rows;
  };
  out.live = await pages(reads, undefined);
  out.liveTeamA = await pages(reads, undefined, 'team-a');
  // A namespace's pages after a key in another namespace (before it: from its start; after it: none).
  for (const after of [
    { namespace: 'default', name: 'zzz' },
    { namespace: 'team-a', name: '' },
    { namespace: 'team-b', name: '' },
  ]) {
    out[`liveTeamA after ${after.namespace}/${after.name}`] = await reads.listPage({ namespace: 'team-a', after, limit: 10 });
  }
  for (const [namespace, name] of names) out[`live ${namespace}/${name}`] = await reads.liveJson(namespace, name);
  for (let rv = 0; rv <= head + 1; rv++) {
    out[`list@${rv}`] = await pages(reads, rv);
    out[`list default@${rv}`] = await pages(reads, rv, 'default');
    for (const [namespace, name] of names) out[`${namespace}/${name}@${rv}`] = await reads.jsonAsOf(namespace, name, rv);
  }
  for (let second = 0; second <= 20; second += 1) {
    const time = new Date(Date.parse(START) + second * 500 - 1).toISOString();
    out[`rv at ${time}`] = await reads.resourceVersionAt(time);
    out[`first position at ${time}`] = await reads.firstPositionAtOrAfter(time);
  }
  for (let rv = 0; rv <= head + 1; rv++) out[`write start at ${rv}`] = await reads.writeStartAtOrAfter(rv);
  out.snapshot = await reads.inSnapshot(async (r) => ({ head: await r.head(), page: await r.listPage({ limit: 100 }) }));
  return out;
}

describePostgres('PostgreSQL service stores', (database) => {
  let sqlite: AppContext;
  let sqliteEngine: Engine;
  const replicas: PgReplica[] = [];

  /** A replica: its own pool, store, clock and ids on the suite's database. */
  const replica = async (seed: number, uidPrefix?: string): Promise<PgReplica> => {
    const handle = await openPostgres(database().url);
    const clock = new FixedClock(new Date(START));
    const store = new PgServiceWriteStore(handle.writePool, clock);
    const logger = sqlite.app.get<Logger>(LOGGER);
    const ids = deterministicIds(seed);
    if (uidPrefix) {
      let uid = 0;
      ids.newUid = () => `${uidPrefix}-${++uid}`;
    }
    const handlers = handlersOn(new ServiceWriteRunner(store, new ChangeFeed(), sqlite.app.get(ClusterNetwork), ids, logger), ids);
    const r: PgReplica = { handle, handlers, reads: new PgServiceReadStore(handle.pool), clock };
    replicas.push(r);
    return r;
  };

  beforeAll(async () => {
    sqlite = await createAppContext(SEED);
    sqliteEngine = { handlers: handlersOf(sqlite.app), reads: sqlite.app.get<ServiceReadStore>(SERVICE_READ_STORE), clock: sqlite.clock };
  });
  afterAll(async () => {
    for (const r of replicas) await r.handle.close();
    await sqlite?.close();
  });

  describe('the same commands on both engines', () => {
    let pg: PgReplica;
    const answers: [WriteResult | string, WriteResult | string][] = [];
    const names = [
      ['default', 'kubernetes'],
      ['default', 'web'],
      ['default', 'api'],
      ['team-a', 'db'],
      ['team-a', 'nodes'],
    ] as const;

    /** Runs one command on both engines, SQLite first, and keeps both answers (or refusals). */
    const both = (command: () => ServiceCommand, user: string) => bothAsync(async () => command(), user);
    const replaceStatus = (namespace: string, name: string, ips: string[], conditions: Condition[] = []) =>
      bothAsync(async (live) => {
        const current = await live(namespace, name);
        return {
          kind: 'ReplaceServiceStatus',
          namespace,
          name,
          object: { ...current, status: { loadBalancer: ips.length ? { ingress: ips.map((ip) => ({ ip, ipMode: 'VIP' as const })) } : {}, ...(conditions.length ? { conditions } : {}) } },
        };
      }, 'lb-controller');
    /** As `both`, for a command built from each engine's own live object. */
    const bothAsync = async (command: (live: (namespace: string, name: string) => Promise<Service>) => Promise<ServiceCommand>, user: string) => {
      const run = async (engine: Engine) => {
        const live = async (namespace: string, name: string) => JSON.parse((await engine.reads.liveJson(namespace, name))!) as Service;
        try {
          return await engine.handlers.execute(await command(live), as(user));
        } catch (error) {
          return `${(error as Error).constructor.name}: ${(error as Error).message}`;
        }
      };
      answers.push([await run(sqliteEngine), await run(pg)]);
      sqliteEngine.clock.advance(500);
      pg.clock.advance(500);
    };

    beforeAll(async () => {
      pg = await replica(SEED);
      // default/kubernetes, created at start-up as the SQLite app did.
      await new KubernetesServiceBootstrap(pg.handlers.create, pg.reads, sqlite.app.get(ClusterNetwork), sqlite.app.get<AppConfig>(APP_CONFIG)).onApplicationBootstrap();

      await both(() => ({ kind: 'CreateService', namespace: 'default', object: service('web', 'default', 'LoadBalancer') }), 'creator');
      await both(() => ({ kind: 'CreateService', namespace: 'default', object: service('api', 'default', 'ClusterIP') }), 'creator');
      await both(() => ({ kind: 'CreateService', namespace: 'team-a', object: service('db', 'team-a', 'LoadBalancer') }), 'creator');
      await both(() => ({ kind: 'CreateService', namespace: 'team-a', object: service('nodes', 'team-a', 'NodePort', { ports: [{ port: 80, nodePort: 30080 }] }) }), 'creator');
      await replaceStatus('default', 'web', ['203.0.113.7'], [condition('Ready', 'False', 'Provisioning')]);
      await replaceStatus('default', 'web', ['203.0.113.7', '203.0.113.8'], [condition('Ready', 'True', 'Provisioned')]);
      await replaceStatus('team-a', 'db', ['198.51.100.1']);
      // Refused on both: a node port taken, a stale resourceVersion (and a name taken, last).
      await both(() => ({ kind: 'CreateService', namespace: 'team-a', object: service('again', 'team-a', 'NodePort', { ports: [{ port: 80, nodePort: 30080 }] }) }), 'creator');
      await bothAsync(async (live) => {
        const current = await live('default', 'api');
        return { kind: 'ReplaceService', namespace: 'default', name: 'api', object: { ...current, metadata: { ...current.metadata, resourceVersion: '1' } } };
      }, 'operator');
      // A spec change, a no-op write, a deletion and a re-creation under the same name.
      await bothAsync(async (live) => {
        const current = await live('default', 'api');
        return { kind: 'ReplaceService', namespace: 'default', name: 'api', object: { ...current, metadata: { ...current.metadata, labels: { app: 'api', tier: 'backend' } } } };
      }, 'operator');
      await bothAsync(async (live) => ({ kind: 'ReplaceService', namespace: 'default', name: 'api', object: await live('default', 'api') }), 'operator');
      await replaceStatus('default', 'web', ['203.0.113.8']);
      await both(() => ({ kind: 'DeleteService', namespace: 'default', name: 'api' }), 'operator');
      await both(() => ({ kind: 'CreateService', namespace: 'default', object: service('api', 'default', 'LoadBalancer') }), 'creator');
      await replaceStatus('default', 'api', ['203.0.113.9'], [condition('Ready', 'True', 'Provisioned')]);
      await both(() => ({ kind: 'DeleteService', namespace: 'team-a', name: 'db' }), 'operator');
      // Last: on PostgreSQL the step of this one runs twice (it asks about allocations of a
      // write that is not a creation of a free name, see PgServiceWriteStore), drawing a second
      // uid and random numbers, so the engines' deterministic ids part ways after it.
      await both(() => ({ kind: 'CreateService', namespace: 'default', object: service('web', 'default', 'ClusterIP') }), 'creator');
    });

    it('answers every write alike, refusals included', () => {
      expect(answers).toHaveLength(17);
      for (const [fromSqlite, fromPg] of answers) expect(fromPg).toEqual(fromSqlite);
      // The sequence did what it says: three refusals, the rest stored.
      expect(answers.filter(([a]) => typeof a === 'string')).toHaveLength(3);
    });

    it('reads alike: live, as of every resourceVersion, paged, by time and in a snapshot', async () => {
      const fromSqlite = await everyRead(sqliteEngine.reads, names);
      const fromPg = await everyRead(pg.reads, names);
      expect(fromSqlite.head).toBeGreaterThan(10);
      // A key in an earlier namespace starts at the namespace's first name; in a later one, nothing.
      const teamA = (fromSqlite.liveTeamA as { name: string }[][]).flat().map((r) => r.name);
      expect((fromSqlite['liveTeamA after default/zzz'] as { name: string }[]).map((r) => r.name)).toEqual(teamA);
      expect(fromSqlite['liveTeamA after team-b/']).toEqual([]);
      expect(fromPg).toEqual(fromSqlite);
    });

    it('projects the same rows', async () => {
      const handle = sqlite.app.get<DatabaseHandle>(DATABASE);
      const queries: Record<string, string> = {
        events: `SELECT position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at, ${repeatedText('actor_user')} AS actor_user,
                   ${repeatedText('actor_groups')} AS actor_groups, ${repeatedText('user_agent')} AS user_agent, ${repeatedText('field_manager')} AS field_manager,
             request_id, verb, subresource, packed_data FROM events ORDER BY position`,
        services: 'SELECT namespace, name, uid, resource_version, stream_version, object FROM services ORDER BY namespace, name',
        service_revisions: 'SELECT uid, resource_version, namespace, name, recorded_at, object, patch FROM service_revisions ORDER BY uid, resource_version',
        service_lifetimes: 'SELECT uid, namespace, name, created_resource_version, deleted_resource_version FROM service_lifetimes ORDER BY uid',
        condition_transitions: `SELECT id, resource_version, uid, namespace, name, condition_type, from_status, to_status, reason, message,
                                  observed_generation, last_transition_time, recorded_at, actor_user FROM condition_transitions ORDER BY id`,
        ingress_intervals: `SELECT id, address, address_type, uid, namespace, name, from_resource_version, from_time, set_by,
                              to_resource_version, to_time, cleared_by FROM ingress_intervals ORDER BY id`,
        allocations: 'SELECT kind, value, uid FROM allocations ORDER BY kind, value',
      };
      for (const [table, sql] of Object.entries(queries)) {
        const fromSqlite = handle.sqlite.prepare(sql).all();
        const fromPg = (await pg.handle.pool.query(sql)).rows;
        expect({ table, rows: fromPg }).toEqual({ table, rows: fromSqlite });
      }
      // Ingress intervals' GiST-indexed span follows their bounds ([from, to), open: unbounded).
      const spans = await pg.handle.pool.query<{ span: string; from: number; to: number | null }>(
        'SELECT span::text AS span, from_resource_version AS from, to_resource_version AS to FROM ingress_intervals ORDER BY id',
      );
      expect(spans.rows.length).toBeGreaterThan(2);
      for (const { span, from, to } of spans.rows) expect(span).toBe(`[${from},${to ?? ''})`);
    });
  });

  describe('two replicas writing at once', () => {
    let a: PgReplica;
    let b: PgReplica;
    beforeAll(async () => {
      // The same seed: both draw the same "random" cluster IPs and node ports, so every
      // allocation of one collides with the other's unless the database keeps them apart (uids
      // are their own, as random ones would be).
      a = await replica(11, 'replica-a');
      b = await replica(11, 'replica-b');
      a.clock.advance(3_600_000);
      b.clock.advance(3_600_000);
    });

    it('allocates distinct cluster IPs and node ports to concurrent creations', async () => {
      const created = await Promise.all(
        [a, b].flatMap((r, i) =>
          Array.from({ length: 6 }, (_, n) => r.handlers.execute({ kind: 'CreateService', namespace: 'alloc', object: service(`lb-${i}-${n}`, 'alloc', 'LoadBalancer') }, as('creator'))),
        ),
      );
      const ips = created.map((c) => c.object.spec.clusterIP!);
      const ports = created.map((c) => c.object.spec.ports![0].nodePort!);
      expect(new Set(ips).size).toBe(12);
      expect(new Set(ports).size).toBe(12);
      const held = await a.handle.pool.query<{ kind: string; value: string }>(`SELECT a.kind, a.value FROM allocations a JOIN services s ON s.uid = a.uid WHERE s.namespace = 'alloc' ORDER BY 1, 2`);
      expect(held.rows).toEqual(
        [...ips.map((value) => ({ kind: 'cluster-ip', value })), ...ports.map((p) => ({ kind: 'node-port', value: String(p) }))].sort((x, y) =>
          `${x.kind} ${x.value}` < `${y.kind} ${y.value}` ? -1 : 1,
        ),
      );
    });

    it('gives a requested cluster IP, a node port and a name to one replica only', async () => {
      const ip = '10.96.200.1';
      const same = (r: PgReplica, name: string) =>
        r.handlers.execute({ kind: 'CreateService', namespace: 'alloc', object: service(name, 'alloc', 'NodePort', { clusterIP: ip, ports: [{ port: 80, nodePort: 31999 }] }) }, as('creator'));
      const ipRace = await Promise.allSettled([same(a, 'wants-ip-a'), same(b, 'wants-ip-b')]);
      expect(ipRace.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refused = ipRace.find((o): o is PromiseRejectedResult => o.status === 'rejected')!.reason as DomainError;
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused.message).toMatch(/already allocated/);

      const named = () => service('one-name', 'alloc', 'ClusterIP');
      const nameRace = await Promise.allSettled([
        a.handlers.execute({ kind: 'CreateService', namespace: 'alloc', object: named() }, as('creator')),
        b.handlers.execute({ kind: 'CreateService', namespace: 'alloc', object: named() }, as('creator')),
      ]);
      expect(nameRace.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(nameRace.find((o): o is PromiseRejectedResult => o.status === 'rejected')!.reason).toBeInstanceOf(AlreadyExistsError);
    });

    it('answers allocation questions of an update from the table as the other replica left it', async () => {
      // one-name is a ClusterIP Service; node port 31999 is held since the race above. An update
      // is not preloaded with the table: its step asks, the table is read, the step runs again.
      const toNodePort = async (r: PgReplica, nodePort: number) => {
        const current = JSON.parse((await r.reads.liveJson('alloc', 'one-name'))!) as Service;
        const object: Service = { ...current, spec: { ...current.spec, type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [{ ...current.spec.ports![0], nodePort }] } };
        return r.handlers.execute({ kind: 'ReplaceService', namespace: 'alloc', name: 'one-name', object }, as('operator'));
      };
      await expect(toNodePort(b, 31999)).rejects.toThrow(/already allocated/);
      const updated = await toNodePort(a, 31998);
      expect(updated.object.spec.ports![0].nodePort).toBe(31998);
      const held = await b.handle.pool.query(`SELECT uid FROM allocations WHERE kind = 'node-port' AND value = '31998'`);
      expect(held.rows).toEqual([{ uid: updated.object.metadata.uid }]);
    });

    it('refuses a second holder of a value in the database itself', async () => {
      const { rows } = await a.handle.pool.query<{ value: string }>(`SELECT value FROM allocations WHERE kind = 'cluster-ip' LIMIT 1`);
      await expect(a.handle.pool.query(`INSERT INTO allocations (kind, value, uid) VALUES ('cluster-ip', $1, 'another-uid')`, [rows[0].value])).rejects.toMatchObject({
        code: '23505',
      });
    });

    it('refuses a write whose step read a stale stream version, and stores nothing', async () => {
      const reads = new PgServiceReadStore(a.handle.pool);
      const head = await reads.head();
      const store = new PgServiceWriteStore(b.handle.writePool, b.clock);
      const stale = store.write('alloc', 'one-name', (facts) => ({
        append: {
          streamId: facts.state.object!.metadata.uid!,
          expectedVersion: facts.state.streamVersion - 1,
          events: [{ type: 'ServiceDeleted', data: {} } as never],
          metadata: { ...as('x'), verb: 'delete', subresource: '', recordedAt: facts.now.toISOString() },
          before: facts.state,
        },
        finish: () => 'stored',
      }));
      await expect(stale).rejects.toBeInstanceOf(StreamVersionConflictError);
      expect(await reads.head()).toBe(head);
    });

    it('commits the writes a replica receives together in one transaction, each refused or stored on its own', async () => {
      const batches: number[] = [];
      const store = new PgServiceWriteStore(a.handle.writePool, a.clock, { committed: (size) => batches.push(size) });
      let uid = 0;
      const ids = { ...deterministicIds(5), newUid: () => `batch-${++uid}` };
      const handlers = handlersOn(new ServiceWriteRunner(store, new ChangeFeed(), sqlite.app.get(ClusterNetwork), ids, sqlite.app.get<Logger>(LOGGER)), ids);
      const create = (name: string) => handlers.execute({ kind: 'CreateService', namespace: 'batch', object: service(name, 'batch', 'ClusterIP') }, as('creator'));
      const taken = JSON.parse((await a.reads.liveJson('alloc', 'one-name'))!) as Service;
      // A step that takes a cluster IP held by one-name without asking: the append statement's
      // check refuses it alone.
      const clash = store.write('batch', 'clash', (facts) => {
        const object = structuredClone(taken);
        object.metadata = { ...object.metadata, name: 'clash', namespace: 'batch', uid: 'clash-uid' };
        return {
          append: {
            streamId: 'clash-uid',
            expectedVersion: 0,
            events: [{ type: 'ServiceCreated', data: { object } } as never],
            metadata: { ...as('x'), verb: 'create', subresource: '', recordedAt: facts.now.toISOString() },
            before: facts.state,
            folded: object,
          },
          finish: () => 'stored',
        };
      });
      const outcomes = await Promise.allSettled([create('first'), create('first'), clash, create('second')]);
      // The second create of 'first' is refused by its decision (after the first's): never sent.
      expect(batches).toEqual([3]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(AlreadyExistsError);
      expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(WriteNotStoredError);
      const [first, , , second] = outcomes as PromiseFulfilledResult<WriteResult>[];
      // The refused writes took no position: no hole.
      expect(Number(second.value.object.metadata.resourceVersion)).toBe(Number(first.value.object.metadata.resourceVersion) + 1);
      expect(await a.reads.liveJson('batch', 'clash')).toBeUndefined();
      expect(await a.reads.head()).toBe(Number(second.value.object.metadata.resourceVersion));
    });

    it('sends the writes of a batch the database refused for the data of one again one by one: that one is not stored, the others are', async () => {
      const store = new PgServiceWriteStore(a.handle.writePool, a.clock);
      let uid = 0;
      const ids = { ...deterministicIds(7), newUid: () => `alone-${++uid}` };
      const handlers = handlersOn(new ServiceWriteRunner(store, new ChangeFeed(), sqlite.app.get(ClusterNetwork), ids, sqlite.app.get<Logger>(LOGGER)), ids);
      const create = (name: string) => handlers.execute({ kind: 'CreateService', namespace: 'alone', object: service(name, 'alone', 'ClusterIP') }, as('creator'));
      // A creation under the uid of a Service that exists elsewhere: the log's unique index (23505)
      // refuses the whole statement, whichever write of it was the cause.
      const existing = JSON.parse((await a.reads.liveJson('alloc', 'one-name'))!) as Service;
      const duplicate = store.write('alone', 'bad', (facts) => {
        const object: Service = {
          ...structuredClone(existing),
          metadata: { ...existing.metadata, name: 'bad', namespace: 'alone' },
          spec: { ports: [{ port: 80, protocol: 'TCP' }], clusterIP: 'None', clusterIPs: ['None'], type: 'ClusterIP' },
        };
        return {
          append: {
            streamId: existing.metadata.uid!,
            expectedVersion: 0,
            events: [{ type: 'ServiceCreated', data: { object } } as never],
            metadata: { ...as('x'), verb: 'create', subresource: '', recordedAt: facts.now.toISOString() },
            before: facts.state,
            folded: object,
          },
          finish: () => 'stored',
        };
      });
      const outcomes = await Promise.allSettled([create('good-1'), duplicate, create('good-2')]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WriteNotStoredError);
      expect(String((outcomes[1] as PromiseRejectedResult).reason.message)).toContain('23505');
      expect(await a.reads.liveJson('alone', 'bad')).toBeUndefined();
      expect(await a.reads.liveJson('alone', 'good-1')).toBeDefined();
      expect(await a.reads.liveJson('alone', 'good-2')).toBeDefined();
    });

    it('answers a write whose connection died before it committed as not stored, and goes on writing', async () => {
      const head = await a.reads.head();
      // Replica a holds the append lock, so b's write waits for it inside its transaction.
      const holder = await a.handle.pool.connect();
      await holder.query(`BEGIN; SELECT pg_advisory_xact_lock(${APPEND_LOCK})`);
      const waiting = b.handlers.execute({ kind: 'CreateService', namespace: 'faults', object: service('cut-off', 'faults', 'ClusterIP') }, as('creator'));
      const outcome = waiting.then(
        () => 'stored',
        (error: unknown) => error,
      );
      let waiter: number | undefined;
      while (waiter === undefined) {
        const { rows } = await a.handle.pool.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
        waiter = rows[0]?.pid;
      }
      await a.handle.pool.query('SELECT pg_terminate_backend($1)', [waiter]);
      expect(await outcome).toBeInstanceOf(WriteNotStoredError);
      await holder.query('COMMIT');
      holder.release();
      expect(await a.reads.head()).toBe(head);
      expect(await a.reads.liveJson('faults', 'cut-off')).toBeUndefined();
      // The dead connection left b's pool: its next write is stored.
      await b.handlers.execute({ kind: 'CreateService', namespace: 'faults', object: service('cut-off', 'faults', 'ClusterIP') }, as('creator'));
      expect(await a.reads.liveJson('faults', 'cut-off')).toBeDefined();
    });

    it('is ready while its database answers, and says so without throwing when it does not', async () => {
      expect(await a.reads.ready()).toBe(true);
      const closed = await openPostgres(database().url);
      await closed.close();
      expect(await new PgServiceReadStore(closed.pool).ready()).toBe(false);
    });

    it('records a write from a replica whose clock is behind no earlier than the newest', async () => {
      a.clock.advance(60_000);
      const ahead = await a.handlers.execute({ kind: 'CreateService', namespace: 'clock', object: service('ahead', 'clock', 'ClusterIP') }, as('creator'));
      const behind = await b.handlers.execute({ kind: 'CreateService', namespace: 'clock', object: service('behind', 'clock', 'ClusterIP') }, as('creator'));
      expect(behind.object.metadata.creationTimestamp).toBe(ahead.object.metadata.creationTimestamp);
      const times = await a.handle.pool.query<{ recorded_at: string }>(`SELECT recorded_at FROM events WHERE namespace = 'clock' ORDER BY position`);
      expect(times.rows.map((r) => r.recorded_at)).toEqual([a.clock.now().toISOString(), a.clock.now().toISOString()]);
      expect(b.clock.now().getTime()).toBeLessThan(a.clock.now().getTime());
    });
  });
});
