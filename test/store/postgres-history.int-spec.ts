// The history reads on PostgreSQL against SQLite: the same writes, through the same command
// handlers with the same clock and ids, applied to both engines; then every history answer (the
// API's JSON, byte for byte, and each repository method) must be the same. A fixed sequence
// first (the shapes the history tests use: flapping conditions, one address on two Services, a
// deletion and a re-creation), then many seeded random writes. Last, what only PostgreSQL can
// get wrong: a history answer read while another connection commits stays in its snapshot.
import { Test } from '@nestjs/testing';
import { Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { KubernetesServiceBootstrap } from '../../src/commands/kubernetes-service.bootstrap';
import { ServiceWriteRunner } from '../../src/commands/service-write-runner';
import { LOGGER } from '../../src/observability/logging.module';
import type { WriteRequestContext } from '../../src/commands/write-result';
import { AppConfig, APP_CONFIG } from '../../src/config/app-config';
import { ClusterNetwork } from '../../src/config/cluster-network';
import type { ServiceCommand } from '../../src/domain/service.commands';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import type { Condition, Service } from '../../src/domain/service.types';
import { BacklogBudget } from '../../src/feed/backlog-budget';
import { ChangeFeed } from '../../src/feed/change-feed';
import { ActivitySummaryService } from '../../src/history/activity-summary.service';
import { ChangeLogService } from '../../src/history/change-log.service';
import { ConditionAuditService } from '../../src/history/condition-audit.service';
import { FieldOwnershipService } from '../../src/history/field-ownership.service';
import { serviceChangeJson } from '../../src/history/history-items';
import { HistoryModule } from '../../src/history/history.module';
import { IngressHistoryService } from '../../src/history/ingress-history.service';
import { CLOCK, FixedClock } from '../../src/shared/clock';
import { ActivitySummaryRepository } from '../../src/store/activity-summary-repository';
import { ACTIVITY_SUMMARY } from '../../src/store/ports/activity-summary';
import { ChangeHistoryRepository } from '../../src/store/change-history-repository';
import { CHANGE_HISTORY, isStoredEventWrite, type StoredLogWrite } from '../../src/store/ports/change-history';
import { ConditionHistoryRepository } from '../../src/store/condition-history-repository';
import { CONDITION_HISTORY } from '../../src/store/ports/condition-history';
import type { DatabaseHandle } from '../../src/store/database';
import { sqliteHistoryStores } from '../../src/store/sqlite-history-stores';
import { pgHistoryStores } from '../../src/store/postgres/pg-history-stores';
import { HISTORY_READ_STORE, HISTORY_STORES } from '../../src/store/ports/history-stores';
import type { HistoryStores } from '../../src/store/ports/history-stores';
import { IngressHistoryRepository } from '../../src/store/ingress-history-repository';
import { INGRESS_HISTORY } from '../../src/store/ports/ingress-history';
import type { KubeEvents } from '../../src/store/ports/kube-events';
import { KubeEventLog } from '../../src/store/kube-event-log';
import { pgHistoryCompactor } from '../../src/store/postgres/pg-history-compactor';
import { HISTORY_COMPACTOR } from '../../src/store/ports/history-compaction';
import { PgServiceReadStore } from '../../src/store/postgres/pg-service-read-store';
import { PgServiceWriteStore } from '../../src/store/postgres/pg-service-write-store';
import { ServiceReadRepository } from '../../src/store/service-read-repository';
import { openPostgres, PostgresHandle } from '../../src/store/postgres/postgres-database';
import type { ServiceChanges } from '../../src/store/ports/service-changes';
import { ServiceChangeLog } from '../../src/store/service-change-log';
import type { SqlReader } from '../../src/store/sql/sql-reader';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';
import { PgSqlReader } from '../../src/store/postgres/pg-sql-reader';
import { SERVICE_READ_STORE } from '../../src/store/ports/service-read-store';
import type { ServiceReadStore } from '../../src/store/ports/service-read-store';
import { STORE_ENGINE } from '../../src/store/store-engine';
import type { StoreEngine } from '../../src/store/store-engine';
import { DATABASE } from '../../src/store/ports/store.tokens';
import { AppContext, createAppContext, deterministicIds } from '../helpers/app-context';
import { seededRandom } from '../helpers/decider-harness';
import { describePostgres } from '../helpers/postgres';
import { handlersOf, handlersOn, type ServiceHandlers } from '../helpers/service-handlers';

const SEED = 13;
const START = '2026-01-02T03:04:05.000Z';
/** Random writes of the property run (`npm run test:pg-history-parity` runs 600). */
const RANDOM_WRITES = Number(process.env.SVCTRAIL_HISTORY_PARITY_WRITES ?? 120);

const as = (user: string): WriteRequestContext => ({ user, groups: ['ops'], userAgent: `${user}/1`, fieldManager: user, requestId: `${user}-req`, dryRun: false });

const service = (name: string, namespace: string, type: 'LoadBalancer' | 'ClusterIP'): Service =>
  applyServiceDefaults({
    metadata: { name, namespace, labels: { app: name } },
    spec: { type, selector: { app: name }, ports: [{ port: 80 }] },
    status: { loadBalancer: {} },
  });

const condition = (type: string, status: string, reason: string, at: string): Condition => ({ type, status, lastTransitionTime: at, reason, message: `${type} is ${status}` });

/** One engine: its command handlers and clock, and every history reader built for it. */
interface Engine {
  handlers: ServiceHandlers;
  reads: ServiceReadStore;
  clock: FixedClock;
  stores: HistoryStores;
  changeLog: ServiceChanges;
  kubeEvents: KubeEvents;
  api: {
    changes: ChangeLogService;
    conditions: ConditionAuditService;
    ingress: IngressHistoryService;
    activity: ActivitySummaryService;
    ownership: FieldOwnershipService;
  };
}

/** `logs`: the engine's reader of the change log and of Events. */
function engineFor(stores: HistoryStores, logs: SqlReader, handlers: ServiceHandlers, reads: ServiceReadStore, clock: FixedClock): Engine {
  return {
    handlers,
    reads,
    clock,
    stores,
    changeLog: new ServiceChangeLog(logs),
    kubeEvents: new KubeEventLog(logs),
    api: {
      changes: new ChangeLogService(stores.changes, stores.reads),
      conditions: new ConditionAuditService(stores.conditions, stores.reads, clock),
      ingress: new IngressHistoryService(stores.ingress, stores.reads),
      activity: new ActivitySummaryService(stores.activity, stores.reads),
      ownership: new FieldOwnershipService(stores.changes, stores.reads),
    },
  };
}

/** An answer as the API would send it (JSON text), or the error it would be refused with. */
/** A write as the feed reads it: a Service's as the change log serves it, an Event's as its log row. */
const feedLine = (write: StoredLogWrite) => (isStoredEventWrite(write) ? JSON.stringify(write.row) : serviceChangeJson(write));

async function answer(read: () => Promise<unknown>): Promise<string> {
  try {
    const value = await read();
    const encoded = (value as { encoded?: { json: string } }).encoded;
    return encoded ? encoded.json : JSON.stringify(value);
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

/** Every page of a list, following its continue tokens. */
async function pages(list: (query: Record<string, string>) => Promise<unknown>, query: Record<string, string>): Promise<string[]> {
  const out: string[] = [];
  for (let token: string | undefined, n = 0; n < 50; n++) {
    const text = await answer(() => list(token ? { ...query, continue: token } : query));
    out.push(text);
    token = text.startsWith('{') ? (JSON.parse(text) as { metadata?: { continue?: string } }).metadata?.continue : undefined;
    if (!token) break;
  }
  return out;
}

/** Every history answer of an engine over the log as it stands, as text. */
async function everyAnswer(e: Engine, facts: { addresses: string[]; scopes: { namespace?: string; name?: string }[]; uids: string[] }) {
  const out: Record<string, unknown> = {};
  const head = await e.reads.head();
  out.head = head;
  const time = (rv: number) => new Date(Date.parse(START) + rv * 500 - 1).toISOString();
  const windows: Record<string, string>[] = [
    {},
    { limit: '3' },
    { sinceResourceVersion: String(Math.floor(head / 3)), untilResourceVersion: String(Math.floor((2 * head) / 3)), limit: '4' },
    { since: time(Math.floor(head / 4)), until: time(Math.floor((3 * head) / 4)) },
    { sinceResourceVersion: String(head), limit: '1' },
  ];
  for (const scope of facts.scopes) {
    const s = JSON.stringify(scope);
    for (const w of windows) {
      const q = JSON.stringify(w);
      out[`changes ${s} ${q}`] = await pages((query) => e.api.changes.list(scope, query), w);
      out[`transitions ${s} ${q}`] = await pages((query) => e.api.conditions.transitions(scope, query), w);
      out[`intervals ${s} ${q}`] = await pages((query) => e.api.ingress.intervals(scope, query), w);
      out[`conflicts ${s} ${q}`] = await pages((query) => e.api.ingress.conflicts(scope, query), w);
    }
    out[`changes by actor ${s}`] = await pages((query) => e.api.changes.list(scope, query), { actor: 'lb-controller', limit: '2' });
    out[`changes by type ${s}`] = await pages((query) => e.api.changes.list(scope, query), { eventType: 'LoadBalancerIngressChanged' });
    out[`changes by manager ${s}`] = await pages((query) => e.api.changes.list(scope, query), { fieldManager: 'operator' });
    out[`transitions Ready=False ${s}`] = await pages((query) => e.api.conditions.transitions(scope, query), { conditionType: 'Ready', status: 'False', limit: '2' });
    out[`summaries ${s}`] = await pages((query) => e.api.conditions.summaries(scope, query), { limit: '2' });
    out[`summaries flapping ${s}`] = await pages((query) => e.api.conditions.summaries(scope, query), { flapping: 'true', flapThreshold: '2' });
    out[`intervals ip ${s}`] = await pages((query) => e.api.ingress.intervals(scope, query), { addressType: 'ip', actor: 'lb-controller' });
    out[`ranking ${s}`] = await pages((query) => e.api.activity.ranking(scope, query), { limit: '2' });
    out[`ranking window ${s}`] = await pages((query) => e.api.activity.ranking(scope, query), { since: time(Math.floor(head / 2)), until: time(head) });
    out[`buckets ${s}`] = await answer(() => e.api.activity.buckets(scope, { since: START, until: time(head + 1), buckets: '7' }));
    out[`ownership ${s}`] = await pages((query) => e.api.ownership.list(scope, query), { limit: '5' });
    out[`ownership status ${s}`] = await pages((query) => e.api.ownership.list(scope, query), { field: 'status', at: time(Math.floor(head / 2)) });
  }
  for (const uid of facts.uids) {
    out[`changes uid ${uid}`] = await pages((query) => e.api.changes.list({}, query), { uid, limit: '2' });
    out[`transitions uid ${uid}`] = await pages((query) => e.api.conditions.transitions({}, query), { uid });
    out[`summaries uid ${uid}`] = await pages((query) => e.api.conditions.summaries({}, query), { uid });
    out[`intervals uid ${uid}`] = await pages((query) => e.api.ingress.intervals({}, query), { uid });
    out[`conflicts uid ${uid}`] = await pages((query) => e.api.ingress.conflicts({}, query), { uid });
  }
  for (const address of facts.addresses) {
    out[`owners ${address}`] = await pages((query) => e.api.ingress.owners(query), { address, limit: '2' });
    out[`conflicts ${address}`] = await pages((query) => e.api.ingress.conflicts({}, query), { address });
    out[`intervals ${address}`] = await pages((query) => e.api.ingress.intervals({ namespace: 'default' }, query), { address });
    for (let rv = 0; rv <= head; rv += Math.max(1, Math.floor(head / 25))) {
      out[`owners ${address} at ${rv}`] = await pages((query) => e.api.ingress.owners(query), { address, at: time(rv) });
      out[`owners ${address} from ${rv}`] = await pages((query) => e.api.ingress.owners(query), { address, from: time(rv), to: time(rv + 5) });
    }
  }
  // The repositories directly, where the API above does not reach every method.
  for (let rv = 0; rv <= head; rv++) {
    out[`changesAfter ${rv}`] = JSON.stringify(await e.changeLog.changesAfter(rv, 3));
    out[`storedWritesAfter ${rv}`] = (await e.stores.changes.storedWritesAfter(rv, head, 2)).map(feedLine);
    out[`kube events after ${rv}`] = JSON.stringify(await e.kubeEvents.writesAfter(rv, 3));
    out[`kube event at ${rv}`] = JSON.stringify(await e.kubeEvents.at(rv));
  }
  out.allChanges = JSON.stringify(await e.changeLog.changesAfter(0, 100_000));
  out.feed = (await e.stores.changes.storedWritesAfter(0, head, 100_000)).map(feedLine);
  for (const rv of await e.stores.changes.matchingWrites({ fromRv: 1, toRv: head, fromPosition: 1 }, 100_000)) {
    out[`write ${rv}`] = JSON.stringify(await e.stores.changes.write(rv));
  }
  out.oldestResumable = await e.changeLog.oldestResumable();
  out.kubeHead = await e.kubeEvents.head();
  out.kubePage = JSON.stringify(await e.kubeEvents.page({ namespace: 'default', afterPosition: 2, untilPosition: head, limit: 50 }));
  for (const uid of facts.uids) {
    out[`kube page ${uid}`] = JSON.stringify(await e.kubeEvents.page({ uid, afterPosition: 0, untilPosition: head, limit: 50 }));
    for (const untilRv of [1, Math.floor(head / 2), head]) {
      out[`summary rows ${uid} ${untilRv}`] = await e.stores.conditions.summaryTransitionsOfService(uid, untilRv);
      out[`lifetime ${uid} ${untilRv}`] = await e.stores.conditions.lifetime(uid, untilRv);
    }
    out[`serviceOf ${uid}`] = await e.stores.conditions.serviceOf(uid, {});
  }
  out.conditionServices = await e.stores.conditions.services({}, 1000);
  return out;
}

describePostgres('history on PostgreSQL', (database) => {
  let sqliteApp: AppContext;
  let sqlite: Engine;
  let pg: Engine;
  let pgHandle: PostgresHandle;
  const answers: [string, string][] = [];

  const statusOf = (namespace: string, name: string, ingress: string[], conditions: Condition[], user = 'lb-controller') =>
    bothLive(async (live) => {
      const current = await live(namespace, name);
      if (!current) return undefined;
      const lb = ingress.map((address) => (/^[0-9.]+$/.test(address) ? { ip: address, ipMode: 'VIP' as const } : { hostname: address }));
      return {
        kind: 'ReplaceServiceStatus',
        namespace,
        name,
        object: { ...current, status: { loadBalancer: lb.length ? { ingress: lb } : {}, ...(conditions.length ? { conditions } : {}) } },
      };
    }, user);

  /** Runs one command on both engines, SQLite first, each built from that engine's own live objects (undefined: skipped). */
  const bothLive = async (command: (live: (namespace: string, name: string) => Promise<Service | undefined>) => Promise<ServiceCommand | undefined>, user: string) => {
    const run = async (engine: Engine) => {
      const live = async (namespace: string, name: string) => {
        const json = await engine.reads.liveJson(namespace, name);
        return json === undefined ? undefined : (JSON.parse(json) as Service);
      };
      const built = await command(live);
      if (!built) return 'skipped';
      try {
        return JSON.stringify(await engine.handlers.execute(built, as(user)));
      } catch (error) {
        return `${(error as Error).constructor.name}: ${(error as Error).message}`;
      }
    };
    const fromSqlite = await run(sqlite);
    const fromPg = await run(pg);
    answers.push([fromSqlite, fromPg]);
    sqlite.clock.advance(500);
    pg.clock.advance(500);
  };

  const create = (namespace: string, name: string, type: 'LoadBalancer' | 'ClusterIP') =>
    bothLive(async (live) => ((await live(namespace, name)) ? undefined : { kind: 'CreateService', namespace, object: service(name, namespace, type) }), 'creator');
  const remove = (namespace: string, name: string) => bothLive(async (live) => ((await live(namespace, name)) ? { kind: 'DeleteService', namespace, name } : undefined), 'operator');
  const relabel = (namespace: string, name: string, tier: string) =>
    bothLive(async (live) => {
      const current = await live(namespace, name);
      if (!current) return undefined;
      return { kind: 'ReplaceService', namespace, name, object: { ...current, metadata: { ...current.metadata, labels: { app: name, tier } } } };
    }, 'operator');

  /** What the comparisons range over: every address, scope and uid the writes used. */
  const facts = async () => {
    const uids = (await pgHandle.pool.query<{ uid: string }>('SELECT uid FROM service_lifetimes ORDER BY uid')).rows.map((r) => r.uid);
    const addresses = (await pgHandle.pool.query<{ address: string }>('SELECT DISTINCT address FROM ingress_intervals ORDER BY address')).rows.map((r) => r.address);
    const names = (await pgHandle.pool.query<{ namespace: string; name: string }>('SELECT DISTINCT namespace, name FROM service_lifetimes ORDER BY 1, 2')).rows;
    return { uids, addresses: [...addresses, '192.0.2.250'], scopes: [{}, { namespace: 'default' }, { namespace: 'team-a' }, { namespace: 'nowhere' }, ...names] };
  };

  beforeAll(async () => {
    sqliteApp = await createAppContext(SEED);
    const sqliteReads = sqliteApp.app.get<ServiceReadStore>(SERVICE_READ_STORE);
    const sqliteHandle = sqliteApp.app.get<DatabaseHandle>(DATABASE);
    sqlite = engineFor(sqliteHistoryStores(sqliteHandle, sqliteReads), new SqliteSqlReader(sqliteHandle), handlersOf(sqliteApp.app), sqliteReads, sqliteApp.clock);

    pgHandle = await openPostgres(database().url);
    const clock = new FixedClock(new Date(START));
    const store = new PgServiceWriteStore(pgHandle.writePool, clock);
    const logger = sqliteApp.app.get<Logger>(LOGGER);
    const ids = deterministicIds(SEED);
    const handlers = handlersOn(new ServiceWriteRunner(store, new ChangeFeed(), sqliteApp.app.get(ClusterNetwork), ids, logger), ids);
    const pgReads = new PgServiceReadStore(pgHandle.pool);
    pg = engineFor(pgHistoryStores(pgHandle), new PgSqlReader(() => pgHandle.pool), handlers, pgReads, clock);
    // default/kubernetes, created at start-up as the SQLite app did.
    await new KubernetesServiceBootstrap(handlers.create, pgReads, sqliteApp.app.get(ClusterNetwork), sqliteApp.app.get<AppConfig>(APP_CONFIG)).onApplicationBootstrap();
  });
  afterAll(async () => {
    await pgHandle?.close();
    await sqliteApp?.close();
  });

  describe('a fixed history', () => {
    beforeAll(async () => {
      const t = (n: number) => new Date(Date.parse(START) + n * 1000).toISOString();
      await create('default', 'web', 'LoadBalancer');
      await create('default', 'api', 'LoadBalancer');
      await create('team-a', 'db', 'LoadBalancer');
      await statusOf('default', 'web', ['203.0.113.10'], [condition('Ready', 'False', 'Pending', t(1))]);
      // Ready flaps, by two controllers.
      for (const [i, s] of ['True', 'False', 'True', 'False'].entries()) {
        await statusOf('default', 'web', ['203.0.113.10'], [condition('Ready', s, `R${i}`, t(2 + i))], i % 2 ? 'lb-controller' : 'cloud-lb');
      }
      // One address on two Services at once (a conflict), then on a third in another namespace.
      await statusOf('default', 'api', ['203.0.113.10', 'api.example.com'], [condition('Ready', 'True', 'Up', t(7))]);
      await statusOf('team-a', 'db', ['203.0.113.11'], [condition('Ready', 'True', 'Up', t(8)), condition('Degraded', 'False', 'Fine', t(8))]);
      await relabel('default', 'api', 'backend');
      await statusOf('default', 'web', [], [condition('Ready', 'False', 'Released', t(9))]);
      await remove('default', 'api');
      await create('default', 'api', 'ClusterIP');
      await statusOf('default', 'api', [], [condition('Ready', 'True', 'Back', t(10))]);
      await statusOf('team-a', 'db', ['203.0.113.10'], [condition('Degraded', 'True', 'Slow', t(11))]);
      await remove('team-a', 'db');
    });

    it('stores every write alike', () => {
      expect(answers.length).toBeGreaterThan(15);
      for (const [fromSqlite, fromPg] of answers) expect(fromPg).toBe(fromSqlite);
      expect(answers.filter(([a]) => a === 'skipped' || !a.startsWith('{'))).toEqual([]);
    });

    it('answers every history query byte for byte alike', async () => {
      const f = await facts();
      expect(f.addresses).toContain('203.0.113.10');
      const fromSqlite = await everyAnswer(sqlite, f);
      const fromPg = await everyAnswer(pg, f);
      // The sequence left something to see: a conflict, a flapping summary, a deleted Service.
      expect(String(fromSqlite['conflicts 203.0.113.10'])).toContain('IngressConflict');
      expect(fromPg).toEqual(fromSqlite);
    });
  });

  describe('many random writes', () => {
    beforeAll(
      async () => {
        const random = seededRandom(SEED);
        const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
        const addresses = ['198.51.100.1', '198.51.100.2', '198.51.100.3', 'lb.example.com'];
        const names = [
          ['default', 'p'],
          ['default', 'q'],
          ['team-a', 'p'],
          ['team-a', 'r'],
        ] as const;
        for (let n = 0; n < RANDOM_WRITES; n++) {
          const [namespace, name] = pick(names);
          const at = new Date(Date.parse(START) + n * 1000).toISOString();
          const roll = random();
          if (roll < 0.2) await create(namespace, name, random() < 0.8 ? 'LoadBalancer' : 'ClusterIP');
          else if (roll < 0.25) await remove(namespace, name);
          else if (roll < 0.3) await relabel(namespace, name, pick(['a', 'b']));
          else {
            // An ingress flap and/or a condition change (sometimes none: a no-op status write).
            const ingress = addresses.filter(() => random() < 0.45);
            const conditions = [condition('Ready', pick(['True', 'False', 'Unknown']), pick(['A', 'B']), at)];
            if (random() < 0.4) conditions.push(condition('Degraded', pick(['True', 'False']), 'D', at));
            await statusOf(namespace, name, ingress, conditions, pick(['lb-controller', 'cloud-lb']));
          }
        }
      },
      Math.max(60_000, RANDOM_WRITES * 200),
    );

    it('stores every write alike', () => {
      for (const [fromSqlite, fromPg] of answers) expect(fromPg).toBe(fromSqlite);
    });

    it(
      'answers every history query alike after them',
      async () => {
        const f = await facts();
        const fromSqlite = await everyAnswer(sqlite, f);
        const fromPg = await everyAnswer(pg, f);
        expect(Object.keys(fromPg).length).toBeGreaterThan(500);
        // The run made history worth comparing: flaps of every kind, and conflicts.
        const items = (key: string, kind: string) => (fromSqlite[key] as string[]).join('').split(`"kind":"${kind}"`).length - 1;
        expect(items('intervals {} {}', 'IngressInterval')).toBeGreaterThan(30);
        expect(items('conflicts {} {}', 'IngressConflict')).toBeGreaterThan(5);
        expect(items('transitions {} {}', 'ConditionTransition')).toBeGreaterThan(50);
        expect(items('changes {} {}', 'ServiceChange')).toBeGreaterThan(80);
        expect(fromPg).toEqual(fromSqlite);
      },
      Math.max(60_000, RANDOM_WRITES * 1_000),
    );
  });

  describe('snapshots', () => {
    it('reads a whole history answer in one snapshot while another connection commits', async () => {
      await create('default', 'snap', 'LoadBalancer');
      await statusOf('default', 'snap', ['192.0.2.77'], []);
      const stores = pg.stores;
      const address = { address: '192.0.2.77', fromRv: 0, toRv: Number.MAX_SAFE_INTEGER, windowed: false };
      const seen = await stores.reads.inSnapshot(async (snapshot) => {
        const head = await snapshot.head();
        // Committed by the pool meanwhile: the address is released.
        await statusOf('default', 'snap', [], []);
        return { head, headAgain: await stores.reads.head(), intervals: await stores.ingress.intervals({ ...address, toRv: head }, 10) };
      });
      expect(seen.headAgain).toBe(seen.head);
      expect(seen.intervals).toHaveLength(1);
      expect(seen.intervals[0].toResourceVersion).toBeNull();
      // Outside the snapshot the release is there.
      const after = await stores.ingress.intervals(address, 10);
      expect(after[0].toResourceVersion).toBe(await pg.reads.head());
    });
  });

  describe('HistoryModule', () => {
    it("provides the PostgreSQL implementations from PostgreSQL's HISTORY_STORES", async () => {
      @Global()
      @Module({
        providers: [
          { provide: STORE_ENGINE, useValue: { kind: 'postgres', handle: pgHandle } satisfies StoreEngine },
          { provide: SERVICE_READ_STORE, useValue: pg.reads },
          { provide: CLOCK, useValue: pg.clock },
          { provide: HISTORY_STORES, useFactory: () => pgHistoryStores(pgHandle) },
          { provide: HISTORY_COMPACTOR, useFactory: () => pgHistoryCompactor(pgHandle.pool) },
          ChangeFeed,
          BacklogBudget,
        ],
        exports: [STORE_ENGINE, SERVICE_READ_STORE, CLOCK, HISTORY_STORES, HISTORY_COMPACTOR, ChangeFeed, BacklogBudget],
      })
      class PostgresEngine {}
      const moduleRef = await Test.createTestingModule({ imports: [PostgresEngine, HistoryModule] }).compile();
      try {
        // One implementation of each repository for both engines, here over PostgreSQL's reader.
        expect(moduleRef.get(CHANGE_HISTORY)).toBeInstanceOf(ChangeHistoryRepository);
        expect(moduleRef.get(CONDITION_HISTORY)).toBeInstanceOf(ConditionHistoryRepository);
        expect(moduleRef.get(INGRESS_HISTORY)).toBeInstanceOf(IngressHistoryRepository);
        expect(moduleRef.get(ACTIVITY_SUMMARY)).toBeInstanceOf(ActivitySummaryRepository);
        // The same reads as GET and LIST, on the history pool's snapshots.
        expect(moduleRef.get(HISTORY_READ_STORE)).toBeInstanceOf(ServiceReadRepository);
        expect(moduleRef.get(HISTORY_READ_STORE)).not.toBe(pg.reads);
        // And the services answer from PostgreSQL, as the ones built by hand above.
        const list = await moduleRef.get(ChangeLogService).list({ namespace: 'default', name: 'web' }, {});
        expect((list as unknown as { encoded: { json: string } }).encoded.json).toBe(
          ((await pg.api.changes.list({ namespace: 'default', name: 'web' }, {})) as unknown as { encoded: { json: string } }).encoded.json,
        );
      } finally {
        await moduleRef.close();
      }
    });
  });
});
