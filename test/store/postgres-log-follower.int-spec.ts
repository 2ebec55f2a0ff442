// The writes a replica reads back from the PostgreSQL log (PgCommittedWriteReader, which feeds
// every replica's change feed through PgLogFollower and serves watch resume) must be exactly the
// CommittedWrites the writing replica held: same events, same state before and after, same JSON,
// for Services' writes and controllers' Events' (CommittedEventWrite) alike. And a follower publishes the writes of another pool (another replica) in order, once each.
import { pino } from 'pino';
import { ServiceWriteRunner } from '../../src/commands/service-write-runner';
import type { WriteRequestContext } from '../../src/commands/write-result';
import { validateConfig } from '../../src/config/app-config';
import { ClusterNetwork } from '../../src/config/cluster-network';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import type { Service } from '../../src/domain/service.types';
import { ChangeFeed } from '../../src/feed/change-feed';
import { isEventWrite, type LoggedWrite } from '../../src/store/ports/committed-event-write';
import { decideKubeEventCreate, decideKubeEventDelete, decideKubeEventReplace } from '../../src/domain/kube-event/kube-event.decider';
import type { KubeEvent } from '../../src/domain/kube-event/kube-event.types';
import { KubeEventWriteRunner } from '../../src/kube-events/commands/kube-event-write-runner';
import { PgAppendQueue } from '../../src/store/postgres/pg-append-queue';
import { PgKubeEventWriteStore } from '../../src/store/postgres/pg-kube-event-write-store';
import { FixedClock } from '../../src/shared/clock';
import { PgCommittedWriteReader } from '../../src/store/postgres/pg-committed-write-reader';
import { PgLogFollower } from '../../src/store/postgres/pg-log-follower';
import { PgServiceWriteStore } from '../../src/store/postgres/pg-service-write-store';
import { openPostgres, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { deterministicIds } from '../helpers/app-context';
import { describePostgres } from '../helpers/postgres';
import { handlersOn } from '../helpers/service-handlers';

const as: WriteRequestContext = { user: 'u', groups: ['ops'], userAgent: 'u/1', fieldManager: 'u', requestId: 'r', dryRun: false };

const service = (name: string): Service =>
  applyServiceDefaults({ metadata: { name, namespace: 'ns', labels: { app: name } }, spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80 }] }, status: { loadBalancer: {} } });

describePostgres('reading committed writes back from the PostgreSQL log', (database) => {
  const handles: PostgresHandle[] = [];
  const config = validateConfig({ dataDir: '/tmp/unused' });
  const network = new ClusterNetwork(config);
  const logger = pino({ level: 'silent' });

  /** A replica's write path whose own feed hears its live CommittedWrites. */
  const writer = async (seed: number) => {
    const handle = await openPostgres(database().url);
    handles.push(handle);
    const feed = new ChangeFeed();
    const live: LoggedWrite[] = [];
    feed.subscribe((write) => live.push(write));
    const clock = new FixedClock(new Date('2026-01-02T03:04:05.000Z'));
    const queue = new PgAppendQueue(handle.writePool);
    const store = new PgServiceWriteStore(handle.writePool, clock, undefined, queue);
    const ids = deterministicIds(seed);
    ids.newUid = (
      (n = 0) =>
      () =>
        `uid-${seed}-${++n}`
    )();
    const events = new KubeEventWriteRunner(new PgKubeEventWriteStore(handle.writePool, clock, queue), feed, ids, config, logger);
    return { handle, live, events, handlers: handlersOn(new ServiceWriteRunner(store, feed, network, ids, logger), ids) };
  };

  afterAll(async () => {
    for (const handle of handles) await handle.close();
  });

  it('every write reads back as the writer held it (creation, updates, a multi-event deletion), paged without splitting a write', async () => {
    const w = await writer(1);
    const web = (await w.handlers.execute({ kind: 'CreateService', namespace: 'ns', object: service('web') }, as)).object;
    const withFinalizer = { ...web, metadata: { ...web.metadata, finalizers: ['example.com/keep'] } };
    const kept = (await w.handlers.execute({ kind: 'ReplaceService', namespace: 'ns', name: 'web', object: withFinalizer }, as)).object;
    await w.handlers.execute({ kind: 'ReplaceServiceStatus', namespace: 'ns', name: 'web', object: { ...kept, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }] } } } }, as);
    await w.handlers.execute({ kind: 'CreateService', namespace: 'ns', object: service('api') }, as);
    // A controller's Event about it: created, repeated, deleted, created again (a new incarnation).
    const event: KubeEvent = {
      metadata: { name: 'api.1', namespace: 'ns' },
      involvedObject: { kind: 'Service', namespace: 'ns', name: 'api' },
      reason: 'EnsuringLoadBalancer',
      count: 1,
      reportingComponent: 'service-controller',
      reportingInstance: '',
    };
    const create = () =>
      w.events.run(
        { namespace: 'ns', name: 'api.1', verb: 'create', decide: (state, ctx) => decideKubeEventCreate({ kind: 'CreateKubeEvent', namespace: 'ns', object: event, api: 'v1' }, state, ctx) },
        as,
      );
    await create();
    await w.events.run(
      {
        namespace: 'ns',
        name: 'api.1',
        verb: 'patch',
        decide: (state, ctx) => decideKubeEventReplace({ kind: 'ReplaceKubeEvent', namespace: 'ns', name: 'api.1', object: { ...state.object!, count: 2 }, api: 'v1', patch: true }, state, ctx),
      },
      as,
    );
    await w.events.run({ namespace: 'ns', name: 'api.1', verb: 'delete', decide: (state, ctx) => decideKubeEventDelete({ kind: 'DeleteKubeEvent', namespace: 'ns', name: 'api.1' }, state, ctx) }, as);
    await create();
    await w.handlers.execute({ kind: 'DeleteService', namespace: 'ns', name: 'web' }, as);
    const current = (await w.handlers.execute({ kind: 'CreateService', namespace: 'ns', object: service('gone') }, as)).object;
    await w.handlers.execute({ kind: 'DeleteService', namespace: 'ns', name: 'gone' }, as);
    // A deletion pending on a finalizer, then the update that removes it: two events in one write.
    const web2 = await new PgCommittedWriteReader(w.handle.pool).writesAfter(0, 100);
    const pending = web2.writes.filter((write) => write.name === 'web' && !isEventWrite(write)).pop()!.after.object as Service;
    await w.handlers.execute({ kind: 'ReplaceService', namespace: 'ns', name: 'web', object: { ...pending, metadata: { ...pending.metadata, finalizers: [] } } }, as);
    await new Promise((resolve) => setImmediate(resolve));
    expect(current.metadata.name).toBe('gone');

    const reader = new PgCommittedWriteReader(w.handle.pool);
    const all = await reader.writesAfter(0, 100);
    expect(all.complete).toBe(true);
    expect(all.writes).toEqual(w.live);
    expect(w.live.some((write) => write.events.length > 1)).toBe(true);
    expect(w.live.filter(isEventWrite).map((write) => [write.events[0].event.type, write.before.object?.count ?? null, write.after.object?.count ?? null])).toEqual([
      ['KubeEventCreated', null, 1],
      ['KubeEventUpdated', 1, 2],
      ['KubeEventDeleted', 2, null],
      ['KubeEventCreated', null, 1],
    ]);
    expect(w.live.some((write) => write.after.object === null)).toBe(true);

    // Pages of one write at a time, from every starting point, add up to the same.
    const paged: LoggedWrite[] = [];
    for (let after = 0; ;) {
      const page = await reader.writesAfter(after, 1);
      paged.push(...page.writes);
      if (page.complete) break;
      after = page.writes[0].resourceVersion;
    }
    expect(paged).toEqual(w.live);
    expect(await reader.head()).toBe(w.live[w.live.length - 1].resourceVersion);
  });

  it("a follower publishes another replica's writes, and its own, in resourceVersion order, each once", async () => {
    const one = await writer(2);
    const two = await writer(3);
    const feed = new ChangeFeed();
    const heard: number[] = [];
    const follower = new PgLogFollower(one.handle, new PgCommittedWriteReader(one.handle.pool), feed, { safetyIntervalMs: 60_000 });
    const start = await new PgCommittedWriteReader(one.handle.pool).head();
    await follower.start();
    let all!: () => void;
    const count = 40;
    const done = new Promise<void>((resolve) => (all = resolve));
    feed.subscribe((write) => {
      heard.push(write.resourceVersion);
      if (heard.length === count) all();
    });
    try {
      // Concurrent writes through two pools; `one`'s writes also hurry the follower directly.
      await Promise.all(
        Array.from({ length: count }, (_, i) => {
          const w = i % 2 ? one : two;
          return w.handlers.execute({ kind: 'CreateService', namespace: 'follow', object: { ...service(`s${i}`), metadata: { name: `s${i}`, namespace: 'follow' } } }, as).then((result) => {
            if (w === one) follower.wake(Number(result.object.metadata.resourceVersion));
          });
        }),
      );
      await done;
    } finally {
      await follower.stop();
    }
    const written = [...one.live, ...two.live]
      .map((write) => write.resourceVersion)
      .filter((rv) => rv > start)
      .sort((x, y) => x - y);
    expect(heard).toEqual(written);
    expect(follower.deliveredResourceVersion).toBe(written[written.length - 1]);
  });

  it('a follower with nobody listening reads nothing back; its own next write is published as held; a listener that comes later hears every write after it, in order', async () => {
    const other = await writer(4);
    const handle = await openPostgres(database().url);
    handles.push(handle);
    const feed = new ChangeFeed();
    let reads = 0;
    // The real reader, counting how often the log is read back.
    const reader = new (class extends PgCommittedWriteReader {
      override writesAfter(resourceVersion: number, limit: number) {
        reads++;
        return super.writesAfter(resourceVersion, limit);
      }
    })(handle.pool);
    const follower = new PgLogFollower(handle, reader, feed, { safetyIntervalMs: 60_000 });
    await follower.start();
    const ownCommits: number[] = [];
    feed.subscribeOwnCommits((write) => ownCommits.push(write.resourceVersion));
    const clock = new FixedClock(new Date('2026-01-02T03:04:05.000Z'));
    const own = handlersOn(new ServiceWriteRunner(new PgServiceWriteStore(handle.writePool, clock), feed, network, deterministicIds(5), logger, follower), deterministicIds(5));
    const create = (h: typeof own, name: string) => h.execute({ kind: 'CreateService', namespace: 'lazy', object: { ...service(name), metadata: { name, namespace: 'lazy' } } }, as);
    try {
      // Nobody listens: neither another replica's writes nor its own are read back.
      for (let i = 0; i < 5; i++) await create(other.handlers, `other-${i}`);
      const mine = Number((await create(own, 'mine-0')).object.metadata.resourceVersion);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(reads).toBe(0);
      expect(follower.deliveredResourceVersion).toBe(mine);
      expect(ownCommits).toEqual([mine]);

      // A listener comes: what it hears is every write after it subscribed, own ones included, in order.
      // (The follower takes the hints again and reads the log after what it noted: nothing new here.)
      const heard: LoggedWrite[] = [];
      feed.subscribe((write) => heard.push(write));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const readsBefore = reads;
      const afterOwn = Number((await create(own, 'mine-1')).object.metadata.resourceVersion);
      for (let i = 0; i < 100 && heard.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      // Its own write was the log's next one: published as the write path held it, not read back.
      // (Its notification may outrun the COMMIT's answer on the other connection; then a read of the
      // log finds that write, as any follower's would, and the answer, when it comes while that read
      // is on its way, asks for one more. Never more.)
      expect(reads - readsBefore).toBeLessThanOrEqual(2);
      expect(heard.map((w) => w.resourceVersion)).toEqual([afterOwn]);
      const theirs = [];
      for (let i = 5; i < 8; i++) theirs.push(Number((await create(other.handlers, `other-${i}`)).object.metadata.resourceVersion));
      const last = Number((await create(own, 'mine-2')).object.metadata.resourceVersion);
      for (let i = 0; i < 100 && heard.length < 5; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard.map((w) => w.resourceVersion)).toEqual([afterOwn, ...theirs, last]);
      // Another replica's writes were read back (its own is not the next one after them until they are).
      expect(reads).toBeGreaterThan(0);
      expect(ownCommits).toEqual([mine, afterOwn, last]);
    } finally {
      await follower.stop();
    }
  });
  it('a follower with nobody listening takes no hints; the first listener makes it take them and hear every write after it; when it leaves, the hints stop', async () => {
    const other = await writer(6);
    const handle = await openPostgres(database().url);
    handles.push(handle);
    const feed = new ChangeFeed();
    let hints = 0;
    // The real follower, counting the notifications it hears (the only wakes that carry a head here).
    const follower = new (class extends PgLogFollower {
      override wake(head?: number) {
        if (head !== undefined) hints++;
        super.wake(head);
      }
    })(handle, new PgCommittedWriteReader(handle.pool), feed, { safetyIntervalMs: 60_000 });
    await follower.start();
    let n = 0;
    const create = async () => {
      const name = `hint-${n++}`;
      return Number(
        (await other.handlers.execute({ kind: 'CreateService', namespace: 'hints', object: { ...service(name), metadata: { name, namespace: 'hints' } } }, as)).object.metadata.resourceVersion,
      );
    };
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    try {
      let last = 0;
      for (let i = 0; i < 3; i++) last = await create();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hints).toBe(0);

      // A listener comes: every write after it reaches it, in order, and hints wake the follower again.
      // (It may hear writes from before it came too, read back from the log, as a listener that reads the log first expects.)
      const heard: number[] = [];
      const subscription = feed.subscribe((write) => heard.push(write.resourceVersion));
      const written: number[] = [];
      for (let i = 0; i < 3; i++) written.push(await create());
      await until(() => heard.filter((rv) => rv > last).length >= written.length && hints > 0);
      expect(heard.filter((rv) => rv > last)).toEqual(written);
      expect([...heard].sort((x, y) => x - y)).toEqual(heard);
      expect(new Set(heard).size).toBe(heard.length);
      expect(hints).toBeGreaterThan(0);

      // It leaves: the next hint is the last (a statement or two may still be on their way).
      subscription.unsubscribe();
      const before = hints;
      await create();
      await until(() => hints > before);
      for (let i = 0; i < 5; i++) await create();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hints - before).toBeLessThanOrEqual(2);
    } finally {
      await follower.stop();
    }
  });
  it('a reconnection after a listener came to a follower that had only noted positions ends nobody: what it noted is checked as what it published would be', async () => {
    const other = await writer(7);
    const handle = await openPostgres(database().url);
    handles.push(handle);
    const feed = new ChangeFeed();
    // The store's connections, with a reconnection this test makes (the log itself is not rewound).
    let generation = 0;
    const server = {
      newClient: handle.newClient.bind(handle),
      locator: {
        get generation() {
          return generation;
        },
      },
    };
    const follower = new PgLogFollower(server, new PgCommittedWriteReader(handle.pool), feed, { safetyIntervalMs: 60_000 });
    await follower.start();
    let n = 0;
    const create = async () => {
      const name = `noted-${n++}`;
      return Number(
        (await other.handlers.execute({ kind: 'CreateService', namespace: 'noted', object: { ...service(name), metadata: { name, namespace: 'noted' } } }, as)).object.metadata.resourceVersion,
      );
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
    try {
      // Nobody listens: the safety net's look at the log only notes how far it goes.
      const noted = await create();
      follower.wake();
      await settle();
      expect(follower.deliveredResourceVersion).toBe(noted);

      const heard: number[] = [];
      const ended: unknown[] = [];
      feed.subscribe(
        (write) => heard.push(write.resourceVersion),
        (error) => ended.push(error),
      );
      // A read of the log once it has a listener (a hint, the safety net), then a reconnection.
      follower.wake();
      await settle();
      generation++;
      follower.wake();
      await settle();
      const next = await create();
      for (let i = 0; i < 100 && !heard.includes(next); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ended).toEqual([]);
      expect(heard).toEqual([next]);
    } finally {
      await follower.stop();
    }
  });
});
