// Watch over real HTTPS: synthetic ADDED for resourceVersion 0, replay from any resourceVersion
// the log holds, live events, DELETED with the deletion's resourceVersion, selector transitions,
// bookmarks only on request, timeouts, and slow watchers dropped instead of buffered.
import { CommandBus } from '@nestjs/cqrs';
import { CreateServiceCommand } from '../../src/commands/service.commands';
import { BacklogBudget } from '../../src/feed/backlog-budget';
import { decodeServiceBody } from '../../src/kube-api/service-body';
import { HistoryFeedService } from '../../src/history/history-feed.service';
import { WatchRegistry } from '../../src/watch/watch-registry';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const NS = '/api/v1/namespaces/watch/services';
const svc = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });

describeEachBackend('watch', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
  });
  afterAll(async () => t.stop());

  it('resourceVersion 0: ADDED for current objects, then live changes; every object has kind and apiVersion', async () => {
    const ns = '/api/v1/namespaces/w0/services';
    await t.client.post(ns, svc('a'));
    await t.client.post(ns, svc('b'));
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=0`);
    expect(watch.status).toBe(200);
    expect(watch.response.headers['content-type']).toBe('application/json');
    const initial = await watch.take(2);
    expect(initial.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'a'],
      ['ADDED', 'b'],
    ]);
    expect(initial[0].object.kind).toBe('Service');
    expect(initial[0].object.apiVersion).toBe('v1');
    const current = (await t.client.get(`${ns}/a`)).json;
    const updated = await t.client.put(`${ns}/a/status`, { ...current, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } });
    const modified = await watch.next();
    expect(modified.type).toBe('MODIFIED');
    expect(JSON.stringify(modified.object)).toBe(updated.text);
    watch.close();
  });

  it('headers arrive at once even when no event follows', async () => {
    const ns = '/api/v1/namespaces/w-headers/services';
    // stream() resolves on the response headers: the writes below happen only once they came.
    const watch = await t.client.stream(`${ns}?watch=true&fieldSelector=metadata.name=nothing-here&resourceVersion=0`);
    expect(watch.status).toBe(200);
    await t.client.post(ns, svc('other'));
    const matching = await t.client.post(ns, svc('nothing-here'));
    // Events arrive in order, so the first being this one proves nothing came before it.
    const first = await watch.next();
    expect([first?.type, first?.object.metadata.uid]).toEqual(['ADDED', matching.json.metadata.uid]);
    watch.close();
  });

  it('a resourceVersion from a list replays every later change from the log, then follows live', async () => {
    const ns = '/api/v1/namespaces/w1/services';
    const list = await t.client.get(ns);
    const from = list.json.metadata.resourceVersion;
    const created = await t.client.post(ns, svc('web'));
    const patched = await t.client.put(`${ns}/web`, { ...created.json, metadata: { ...created.json.metadata, labels: { v: '2' } } });
    const deleted = await t.client.delete(`${ns}/web`);
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=${from}`);
    const replay = await watch.take(3);
    expect(replay.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(JSON.stringify(replay[0].object)).toBe(created.text);
    expect(JSON.stringify(replay[1].object)).toBe(patched.text);
    expect(replay[2].object.metadata.uid).toBe(created.json.metadata.uid);
    expect(Number(replay[2].object.metadata.resourceVersion)).toBeGreaterThan(Number(deleted.json.metadata.resourceVersion));
    const again = await t.client.post(ns, svc('web'));
    const live = await watch.next();
    expect(live.type).toBe('ADDED');
    expect(live.object.metadata.uid).toBe(again.json.metadata.uid);
    watch.close();
  });

  it('a resume over several pages of the log delivers every write once, in order, then follows live', async () => {
    const ns = '/api/v1/namespaces/wpages/services';
    const from = (await t.client.get(ns)).json.metadata.resourceVersion;
    let current = (await t.client.post(ns, svc('many'))).json;
    const written = [current.metadata.resourceVersion];
    // 250 writes: the catch-up reads the log a page (100 writes) at a time.
    for (let i = 0; i < 250; i++) {
      current = (await t.client.put(`${ns}/many/status`, { ...current, status: { loadBalancer: { ingress: [{ ip: `198.51.100.${i % 250}` }] } } })).json;
      written.push(current.metadata.resourceVersion);
    }
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=${from}`);
    const replay = await watch.take(written.length);
    expect(replay.map((e) => e.object.metadata.resourceVersion)).toEqual(written);
    expect(replay.map((e) => e.type)).toEqual(['ADDED', ...written.slice(1).map(() => 'MODIFIED')]);
    const live = (await t.client.put(`${ns}/many/status`, { ...current, status: { loadBalancer: {} } })).json;
    expect((await watch.next()).object.metadata.resourceVersion).toBe(live.metadata.resourceVersion);
    watch.close();
  });

  it('resumes from resourceVersions far older than kube-apiserver keeps', async () => {
    const watch = await t.client.stream(`/api/v1/services?watch=true&resourceVersion=1`);
    const first = await watch.next();
    expect(first).toBeDefined();
    expect(Number(first.object.metadata.resourceVersion)).toBeGreaterThan(1);
    watch.close();
  });

  it('label selectors: entering is ADDED, leaving is DELETED', async () => {
    const ns = '/api/v1/namespaces/w2/services';
    const created = await t.client.post(ns, svc('s', { tier: 'a' }));
    const watch = await t.client.stream(`${ns}?watch=true&labelSelector=tier%3Db&resourceVersion=${created.json.metadata.resourceVersion}`);
    const moved = await t.client.put(`${ns}/s`, { ...created.json, metadata: { ...created.json.metadata, labels: { tier: 'b' } } });
    expect(await watch.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 's', labels: { tier: 'b' } } } });
    const back = await t.client.put(`${ns}/s`, { ...moved.json, metadata: { ...moved.json.metadata, labels: { tier: 'a' } } });
    const left = await watch.next();
    expect(left.type).toBe('DELETED');
    expect(left.object.metadata.resourceVersion).toBe(back.json.metadata.resourceVersion);
    watch.close();
  });

  it('a watch resumed from the log sees selectors entered and left, and plain updates as MODIFIED', async () => {
    const ns = '/api/v1/namespaces/w2-resume/services';
    const created = await t.client.post(ns, svc('s', { tier: 'a' }));
    const relabel = async (from: { json: any }, labels: Record<string, string>) => t.client.put(`${ns}/s`, { ...from.json, metadata: { ...from.json.metadata, labels } });
    const moved = await relabel(created, { tier: 'b' });
    const back = await relabel(moved, { tier: 'a' });
    const touched = await relabel(back, { tier: 'a', other: 'x' });
    // Every write is in the past: both watches read them from the log, not the live feed.
    const rv = created.json.metadata.resourceVersion;
    const selected = await t.client.stream(`${ns}?watch=true&labelSelector=tier%3Db&resourceVersion=${rv}`);
    const plain = await t.client.stream(`${ns}?watch=true&resourceVersion=${rv}`);
    try {
      expect(await selected.next()).toMatchObject({ type: 'ADDED', object: { metadata: { labels: { tier: 'b' }, resourceVersion: moved.json.metadata.resourceVersion } } });
      expect(await selected.next()).toMatchObject({ type: 'DELETED', object: { metadata: { resourceVersion: back.json.metadata.resourceVersion } } });
      const plainEvents = await plain.take(3);
      expect(plainEvents.map((e: any) => [e.type, e.object.metadata.resourceVersion])).toEqual([moved, back, touched].map((w) => ['MODIFIED', w.json.metadata.resourceVersion]));
      // The selected watch saw nothing of the write outside its selector: its next event is a later write's.
      const later = await relabel(touched, { tier: 'b' });
      expect(await selected.next()).toMatchObject({ type: 'ADDED', object: { metadata: { resourceVersion: later.json.metadata.resourceVersion } } });
    } finally {
      selected.close();
      plain.close();
    }
  });

  it('sends BOOKMARK only when asked', async () => {
    const registry = t.server.app.get(WatchRegistry);
    const interval = registry.bookmarkIntervalMs;
    registry.bookmarkIntervalMs = 100;
    const ns = '/api/v1/namespaces/w-bookmarks/services';
    const streams: { close(): void }[] = [];
    try {
      const head = (await t.client.get(ns)).json.metadata.resourceVersion;
      const plain = await t.client.stream(`${ns}?watch=true&resourceVersion=${head}`);
      const withBookmarks = await t.client.stream(`${ns}?watch=true&resourceVersion=${head}&allowWatchBookmarks=true`);
      streams.push(plain, withBookmarks);
      const bookmarks = await withBookmarks.take(2);
      expect(bookmarks[0]).toEqual({ type: 'BOOKMARK', object: { kind: 'Service', apiVersion: 'v1', metadata: { resourceVersion: head } } });
      expect(bookmarks[1]?.type).toBe('BOOKMARK');
      // Two bookmark intervals have passed; the plain watch's first event is the write after them.
      const created = await t.client.post(ns, svc('after-bookmarks'));
      const first = await plain.next();
      expect([first?.type, first?.object.metadata.uid]).toEqual(['ADDED', created.json.metadata.uid]);
    } finally {
      for (const stream of streams) stream.close();
      registry.bookmarkIntervalMs = interval;
    }
  });

  it('timeoutSeconds ends the stream', async () => {
    const watch = await t.client.stream(`${NS}?watch=true&timeoutSeconds=1`);
    await watch.closed;
    expect(watch.ended).toBe(true);
  });

  it('a resourceVersion beyond the newest is 504 Timeout before any stream starts', async () => {
    const res = await t.client.get(`${NS}?watch=true&resourceVersion=99999999`);
    expect(res.status).toBe(504);
    expect(res.json.reason).toBe('Timeout');
    expect(res.json.message).toMatch(/^Too large resource version: 99999999, current: \d+$/);
  });

  it('bad watch parameters are Status errors', async () => {
    const match = await t.client.get(`${NS}?watch=true&resourceVersion=1&resourceVersionMatch=Exact`);
    expect(match.status).toBe(422);
    expect(match.json.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch');
    const timeout = await t.client.get(`${NS}?watch=true&timeoutSeconds=soon`);
    expect(timeout.status).toBe(400);
    const selector = await t.client.get(`${NS}?watch=true&fieldSelector=spec.foo%3Dx`);
    expect(selector.status).toBe(400);
    expect(selector.json.message).toBe('field label not supported: spec.foo');
  });

  it('a watcher that stops reading is closed instead of buffering without bound, and writers are not held up', async () => {
    const service = t.server.app.get(WatchRegistry);
    const previous = service.maxBacklogBytes;
    service.maxBacklogBytes = 64 * 1024;
    try {
      const ns = '/api/v1/namespaces/w3/services';
      const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=0`);
      watch.response.pause();
      // Enough to fill the kernel's socket buffers too, which absorb several MiB on loopback.
      const big = 'x'.repeat(200000);
      for (let i = 0; i < 100; i++) {
        const res = await t.client.post(ns, { metadata: { name: `big${i}`, annotations: { blob: big } }, spec: { ports: [{ port: 80 }] } });
        expect(res.status).toBe(201);
      }
      watch.response.resume();
      // Ends (the server closed it) rather than delivering all 100 events.
      await watch.closed;
      expect(watch.ended).toBe(true);
    } finally {
      service.maxBacklogBytes = previous;
    }
  });

  it('caps feed followers with 429 and a Retry-After; a feed without follow is still served', async () => {
    const feeds = t.server.app.get(HistoryFeedService);
    const previous = feeds.maxFollowers;
    feeds.maxFollowers = 1;
    const follower = await t.client.stream('/apis/history.svctrail.io/v1alpha1/feed?follow=true');
    try {
      expect(follower.status).toBe(200);
      const second = await t.client.get('/apis/history.svctrail.io/v1alpha1/feed?follow=true');
      expect(second.status).toBe(429);
      expect(second.json.reason).toBe('TooManyRequests');
      expect(second.headers['retry-after']).toBe('1');
      const head = (await t.client.get('/api/v1/services?limit=1')).json.metadata.resourceVersion;
      expect((await t.client.get(`/apis/history.svctrail.io/v1alpha1/feed?after=${head}`)).status).toBe(200);
    } finally {
      follower.close();
      feeds.maxFollowers = previous;
    }
  });

  it('one backlog budget for every watch and feed stream: over it, the fullest is closed before any reaches its own limit', async () => {
    const budget = t.server.app.get(BacklogBudget);
    const registry = t.server.app.get(WatchRegistry);
    const feeds = t.server.app.get(HistoryFeedService);
    const previous = budget.maxTotalBytes;
    budget.maxTotalBytes = 1024 * 1024; // each stream's own limit stays at 16 MiB
    const evictionsBefore = budget.evictions;
    const ns = '/api/v1/namespaces/w4/services';
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=0`);
    const follower = await t.client.stream(`/apis/history.svctrail.io/v1alpha1/feed?follow=true&after=${(await t.client.get(ns)).json.metadata.resourceVersion}`);
    try {
      watch.response.pause();
      follower.response.pause();
      // Enough to fill the kernel's socket buffers of both, which absorb several MiB on loopback.
      const big = 'x'.repeat(200000);
      for (let i = 0; i < 60; i++) {
        const res = await t.client.post(ns, { metadata: { name: `big${i}`, annotations: { blob: big } }, spec: { ports: [{ port: 80 }] } });
        expect(res.status).toBe(201);
      }
      expect(budget.evictions).toBeGreaterThan(evictionsBefore);
      expect(registry.openWatches === 0 || feeds.openFollowers === 0).toBe(true);
      const metrics = (await t.client.get('/metrics')).text;
      expect(metrics).toMatch(new RegExp(`^svctrail_stream_budget_evictions ${budget.evictions}$`, 'm'));
    } finally {
      budget.maxTotalBytes = previous;
      watch.close();
      follower.close();
    }
  });

  it('catching up on large objects is paced by the socket, not cut off at the backlog limit', async () => {
    const ns = '/api/v1/namespaces/w5/services';
    const from = (await t.client.get(ns)).json.metadata.resourceVersion;
    // More than one stream's 16 MiB limit within one catch-up page; written in one group commit
    // through the command bus, since 90 requests of 250 kB would take seconds.
    const big = 'x'.repeat(250000);
    const commands = t.server.app.get(CommandBus);
    const context = { user: 'admin', groups: ['system:masters'], userAgent: 'watch-test', fieldManager: 'watch-test', requestId: 'w5', dryRun: false };
    await Promise.all(
      Array.from({ length: 90 }, (_, i) => {
        const object = decodeServiceBody({ metadata: { name: `big${i}`, annotations: { blob: big } }, spec: { ports: [{ port: 80 }] } }, 'Strict').object;
        return commands.execute(new CreateServiceCommand({ kind: 'CreateService', namespace: 'w5', object }, context));
      }),
    );
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=${from}`);
    const replayed = await watch.take(90);
    expect(replayed.map((e) => e.object.metadata.name).sort()).toEqual(Array.from({ length: 90 }, (_, i) => `big${i}`).sort());
    watch.close();
    const feed = await t.client.get(`/apis/history.svctrail.io/v1alpha1/feed?after=${from}`);
    expect(feed.status).toBe(200);
    expect(feed.text.split('\n').filter(Boolean)).toHaveLength(90);
  });
});
