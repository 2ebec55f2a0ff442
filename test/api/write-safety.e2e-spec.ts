// Safe to operate, over the real server: a batch that SQLite rolls back mid-way is answered
// exactly as stored (answers, log, projections and watch agree); watchers and feed listeners hear
// of a write only after it is answered and cannot fail it; the recorded time never goes back when
// the clock does; deletecollection shares one group commit.
import { CommandBus } from '@nestjs/cqrs';
import { CreateServiceCommand } from '../../src/commands/service.commands';
import type { WriteRequestContext } from '../../src/commands/write-result';
import { ChangeFeed } from '../../src/feed/change-feed';
import { statusForError } from '../../src/kube-api/kube-status';
import { decodeServiceBody } from '../../src/kube-api/service-body';
import type { LoggedWrite } from '../../src/store/ports/committed-event-write';
import { FixedClock } from '../../src/shared/clock';
import type { DatabaseHandle } from '../../src/store/database';
import { DATABASE } from '../../src/store/ports/store.tokens';
import { startTestServer, type TestServer } from '../helpers/test-server';

const svc = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, ...extra }, spec: { ports: [{ port: 80 }] } });
/** A create as the HTTP layer hands it to the command bus: decoded and defaulted. */
const create = (namespace: string, body: unknown, requestId: string) =>
  new CreateServiceCommand({ kind: 'CreateService', namespace, object: decodeServiceBody(body, 'Strict').object }, context(requestId));
const context = (requestId: string): WriteRequestContext => ({
  user: 'tester',
  groups: ['system:authenticated'],
  userAgent: 'write-safety/1.0',
  fieldManager: 'write-safety',
  requestId,
  dryRun: false,
});

describe('write safety', () => {
  const clock = new FixedClock(new Date('2026-05-01T00:00:00.000Z'));
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ clock });
  });
  afterAll(async () => t.stop());

  /** Names of the writes the history feed holds after a resourceVersion (the log itself). */
  const loggedNames = async (after: string, namespace: string) => {
    const feed = await t.client.get(`/apis/history.svctrail.io/v1alpha1/feed?after=${after}`);
    return feed.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((c) => c.service.namespace === namespace)
      .map((c) => c.service.name);
  };

  it('a batch that hits SQLITE_FULL mid-way: answers, the log, the projections and the watch stream agree', async () => {
    const ns = 'full';
    const from = (await t.client.get(`/api/v1/namespaces/${ns}/services`)).json.metadata.resourceVersion;
    const watch = await t.client.stream(`/api/v1/namespaces/${ns}/services?watch=true&resourceVersion=${from}`);
    const handle = t.server.app.get<DatabaseHandle>(DATABASE);
    const commands = t.server.app.get(CommandBus);
    const names = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const blob = 'x'.repeat(3000);
    let answers: PromiseSettledResult<unknown>[];
    // Room for a few writes only: the one that needs a page more makes SQLite roll the whole
    // shared transaction back. All twelve are issued in one turn, so they share one batch.
    const pages = handle.sqlite.pragma('page_count', { simple: true }) as number;
    handle.sqlite.pragma(`max_page_count = ${pages + 12}`);
    try {
      answers = await Promise.allSettled(names.map((name, i) => commands.execute(create(ns, svc(name, { annotations: { blob } }), `full-${i}`))));
    } finally {
      handle.sqlite.pragma('max_page_count = 4294967294');
    }
    const acknowledged = names.filter((_, i) => answers[i].status === 'fulfilled');
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeLessThan(names.length);
    for (const answer of answers) {
      if (answer.status === 'fulfilled') continue;
      const status = statusForError(answer.reason)!;
      expect(status.code).toBe(500);
      expect(status.reason).toBe('InternalError');
      expect(status.message).toMatch(/the write was not stored.*SQLITE_FULL/);
    }
    // The projection and the log hold exactly the acknowledged writes.
    const listed = (await t.client.get(`/api/v1/namespaces/${ns}/services`)).json.items.map((s: any) => s.metadata.name);
    expect(listed.sort()).toEqual([...acknowledged].sort());
    expect((await loggedNames(from, ns)).sort()).toEqual([...acknowledged].sort());
    // The watch saw exactly them, before a sentinel written afterwards.
    await t.client.post(`/api/v1/namespaces/${ns}/services`, svc('sentinel'));
    const seen: string[] = [];
    for (;;) {
      const event = await watch.next();
      expect(event).toBeDefined();
      if (event.object.metadata.name === 'sentinel') break;
      expect(event.type).toBe('ADDED');
      seen.push(event.object.metadata.name);
    }
    expect(seen.sort()).toEqual([...acknowledged].sort());
    watch.close();
  });

  it('a feed listener hears of a write only after the writer has its answer', async () => {
    const feed = t.server.app.get(ChangeFeed);
    const commands = t.server.app.get(CommandBus);
    const heard: LoggedWrite[] = [];
    const subscription = feed.subscribe((write) => write.namespace === 'order' && heard.push(write));
    try {
      const result = await commands.execute(create('order', svc('first'), 'order-1'));
      expect(result.object.metadata.name).toBe('first');
      expect(heard).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(heard.map((w) => w.name)).toEqual(['first']);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('a feed listener that throws neither fails the write nor the process, and other watchers still see it', async () => {
    const ns = '/api/v1/namespaces/throwing/services';
    const feed = t.server.app.get(ChangeFeed);
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=0`);
    const subscription = feed.subscribe(() => {
      throw new Error('a listener bug');
    });
    try {
      const created = await t.client.post(ns, svc('survives'));
      expect(created.status).toBe(201);
      const event = await watch.next();
      expect([event.type, event.object.metadata.name]).toEqual(['ADDED', 'survives']);
      // Still serving, and the next write is fan-out as usual.
      const second = await t.client.post(ns, svc('after'));
      expect(second.status).toBe(201);
      expect((await watch.next()).object.metadata.name).toBe('after');
    } finally {
      subscription.unsubscribe();
      watch.close();
    }
  });

  it('recordedAt never goes back when the clock does; asOf, since and until stay right', async () => {
    const ns = 'clock';
    const path = `/api/v1/namespaces/${ns}/services`;
    clock.advance(60_000);
    const ahead = (await t.client.post(path, svc('ahead'))).json;
    const aheadAt = clock.now().toISOString();
    clock.advance(-120_000); // the system clock steps back two minutes
    const behind = (await t.client.post(path, svc('behind'))).json;
    expect(Date.parse(behind.metadata.creationTimestamp)).toBeGreaterThanOrEqual(Date.parse(ahead.metadata.creationTimestamp));
    const changes = (await t.client.get(`/apis/history.svctrail.io/v1alpha1/namespaces/${ns}/changes`)).json.items;
    expect(changes.map((c: any) => [c.service.name, c.time])).toEqual([
      ['ahead', aheadAt],
      ['behind', aheadAt],
    ]);
    // One minute before either write existed (and after the clock's stepped-back reading).
    const between = new Date(Date.parse(aheadAt) - 30_000).toISOString();
    expect((await t.client.get(`${path}?asOf=${between}`)).json.items).toEqual([]);
    const until = (await t.client.get(`/apis/history.svctrail.io/v1alpha1/namespaces/${ns}/changes?until=${between}`)).json.items;
    expect(until).toEqual([]);
    const since = (await t.client.get(`/apis/history.svctrail.io/v1alpha1/namespaces/${ns}/changes?since=${between}`)).json.items;
    expect(since.map((c: any) => c.service.name)).toEqual(['ahead', 'behind']);
    clock.advance(120_000);
  });

  it('deletecollection deletes in one group commit, with a DELETED per item, Events, and allocations released', async () => {
    const ns = '/api/v1/namespaces/dcol/services';
    const nodePorts = [30901, 30902, 30903, 30904, 30905];
    for (const [i, nodePort] of nodePorts.entries()) {
      const res = await t.client.post(ns, { metadata: { name: `np${i}` }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort }] } });
      expect(res.status).toBe(201);
    }
    const from = (await t.client.get(ns)).json.metadata.resourceVersion;
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=${from}`);
    const batches = async () => {
      const text = (await t.client.get('/metrics')).text;
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)![1]);
      return { count: value('svctrail_commit_batch_size_count'), sum: value('svctrail_commit_batch_size_sum') };
    };
    const before = await batches();
    const res = await t.client.delete(ns);
    expect(res.status).toBe(200);
    expect(res.json.items.map((s: any) => s.metadata.name)).toEqual(['np0', 'np1', 'np2', 'np3', 'np4']);
    const after = await batches();
    expect(after).toEqual({ count: before.count + 1, sum: before.sum + 5 });
    const deleted = await watch.take(5);
    expect(deleted.map((e) => [e.type, e.object.metadata.name])).toEqual(['np0', 'np1', 'np2', 'np3', 'np4'].map((n) => ['DELETED', n]));
    watch.close();
    expect((await t.client.get(ns)).json.items).toEqual([]);
    const events = (await t.client.get('/api/v1/namespaces/dcol/events')).json.items;
    for (const name of ['np0', 'np4']) {
      expect(events.some((e: any) => e.involvedObject.name === name && e.reason === 'Deleted')).toBe(true);
    }
    // Every node port is free again.
    for (const [i, nodePort] of nodePorts.entries()) {
      const again = await t.client.post(ns, { metadata: { name: `again${i}` }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort }] } });
      expect(again.status).toBe(201);
    }
  });
});
