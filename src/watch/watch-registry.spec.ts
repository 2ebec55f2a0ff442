import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Subject } from 'rxjs';
import { TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import { BacklogBudget } from '../feed/backlog-budget';
import { ChangeFeed } from '../feed/change-feed';
import type { CommittedWrite } from '../store/ports/committed-write';
import { WatchRegistry } from './watch-registry';
import type { WatchChange, WatchObjectEncoder, WatchSources } from './watch-session';

/** Just enough of a ServerResponse to record what a watch writes. */
class RecordingResponse extends EventEmitter {
  status = 0;
  body = '';
  writableEnded = false;
  writableNeedDrain = false;
  /** A reader that stopped reading: everything written since the last flush() stays buffered. */
  stalled = false;
  private flushed = 0;
  get writableLength() {
    return this.stalled && !this.writableEnded ? Buffer.byteLength(this.body) - this.flushed : 0;
  }
  flush() {
    this.flushed = Buffer.byteLength(this.body);
  }
  writeHead(status: number) {
    this.status = status;
    return this;
  }
  flushHeaders() {}
  /** Writes that reached the socket: one per write while uncorked, one per uncork with data held. */
  socketWrites = 0;
  private corks = 0;
  private held = false;
  cork() {
    this.corks++;
  }
  uncork() {
    if (this.corks > 0 && --this.corks === 0 && this.held) {
      this.held = false;
      this.socketWrites++;
    }
  }
  write(chunk: string) {
    this.body += chunk;
    if (this.corks > 0) this.held = true;
    else this.socketWrites++;
    return true;
  }
  end(chunk?: string) {
    if (chunk) this.body += chunk;
    this.writableEnded = true;
    this.emit('close');
  }
  destroy() {
    this.end();
  }
  lines() {
    return this.body
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  }
}

function sources(head: number, history: WatchChange<string>[] = []) {
  const live = new Subject<WatchChange<string>>();
  const src: WatchSources<string> = {
    head: async () => head,
    currentObjects: async () => ({ objects: ['current'], resourceVersion: head }),
    changesAfter: async (rv, limit) => {
      // A turn of the event loop per page, as a database server's answer would take.
      await new Promise((resolve) => setImmediate(resolve));
      const changes = history.filter((c) => c.resourceVersion > rv).slice(0, limit);
      return { changes, complete: changes.length < limit };
    },
    subscribe: (listener) => live.subscribe(listener),
    bookmark: (rv) => ({ rv }),
  };
  return { src, live };
}

describe('WatchRegistry', () => {
  it('answers a resourceVersion older than the log with an ERROR 410 Expired event and ends the stream', async () => {
    const registry = new WatchRegistry();
    const res = new RecordingResponse();
    await (
      await registry.prepare({ resourceVersion: 3, bookmarks: false, encode: (o) => o }, sources(20).src, 10)
    )(res as unknown as ServerResponse);
    expect(res.status).toBe(200);
    expect(res.lines()).toEqual([
      {
        type: 'ERROR',
        object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 3 (10)', reason: 'Expired', code: 410 },
      },
    ]);
    expect(res.writableEnded).toBe(true);
    expect(registry.openWatches).toBe(0);
  });

  it('refuses a resourceVersion beyond the head before streaming', async () => {
    await expect(new WatchRegistry().prepare({ resourceVersion: 21, bookmarks: false, encode: (o) => o }, sources(20).src, 0)).rejects.toThrow(TooLargeResourceVersionError);
  });

  it('holds live changes that arrive while it reads the log, and delivers each write once, in order', async () => {
    const registry = new WatchRegistry();
    const res = new RecordingResponse();
    // Given a log of writes 4..6, where 6 commits (and is published) while the watcher reads page one,
    const history: WatchChange<string>[] = [4, 5, 6].map((rv) => ({ resourceVersion: rv, event: { type: 'MODIFIED', object: `w${rv}` } }));
    const { src, live } = sources(5, history);
    const changesAfter = src.changesAfter;
    let pages = 0;
    src.changesAfter = async (rv, limit) => {
      const page = await changesAfter(rv, 2);
      if (++pages === 1) {
        live.next(history[2]);
        live.next({ resourceVersion: 7, event: { type: 'DELETED', object: 'w7' } });
      }
      return { changes: page.changes, complete: page.changes.length < 2 && limit > 0 };
    };
    // when it resumes from 3,
    await (
      await registry.prepare({ resourceVersion: 3, bookmarks: false, encode: (o) => o }, src, 0)
    )(res as unknown as ServerResponse);
    live.next({ resourceVersion: 7, event: { type: 'DELETED', object: 'stale' } });
    live.next({ resourceVersion: 8, event: { type: 'ADDED', object: 'w8' } });
    // then 6 comes once (from the log), 7 once (held), and live changes follow.
    expect(res.lines().map((l) => l.object)).toEqual(['w4', 'w5', 'w6', 'w7', 'w8']);
    registry.beforeApplicationShutdown();
  });

  it('refuses a watch asked for once shutdown has begun, and ends one that was prepared just before, so nothing holds the server open', async () => {
    const registry = new WatchRegistry();
    const { src } = sources(5, []);
    const prepared = await registry.prepare({ resourceVersion: 5, bookmarks: false, encode: (o) => o }, src, 0);
    registry.beforeApplicationShutdown();
    await expect(registry.prepare({ resourceVersion: 5, bookmarks: false, encode: (o) => o }, src, 0)).rejects.toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: 'The apiserver is shutting down, please try again later.',
    });
    const res = new RecordingResponse();
    await prepared(res as unknown as ServerResponse);
    expect(res.writableEnded).toBe(true);
    expect(registry.openWatches).toBe(0);
  });

  it('replays history, then follows live changes that come after it, skipping ones already replayed', async () => {
    const registry = new WatchRegistry();
    const res = new RecordingResponse();
    const { src, live } = sources(5, [{ resourceVersion: 4, event: { type: 'MODIFIED', object: 'four' } }, { resourceVersion: 5 }]);
    await (
      await registry.prepare({ resourceVersion: 3, bookmarks: false, encode: (o) => o.toUpperCase() }, src, 0)
    )(res as unknown as ServerResponse);
    live.next({ resourceVersion: 5, event: { type: 'MODIFIED', object: 'stale' } });
    live.next({ resourceVersion: 6, event: { type: 'DELETED', object: 'six' } });
    expect(res.lines()).toEqual([
      { type: 'MODIFIED', object: 'FOUR' },
      { type: 'DELETED', object: 'SIX' },
    ]);
    expect(registry.openWatches).toBe(1);
    registry.beforeApplicationShutdown();
    expect(res.writableEnded).toBe(true);
  });

  it.each([
    ['reads the log (a resumed watch)', 3],
    ['reads the current objects (a watch from now)', 0],
  ])('a watcher that goes away while it %s leaves no bookmark timer and no feed subscription behind', async (_what, resourceVersion) => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const registry = new WatchRegistry();
      const res = new RecordingResponse();
      const { src, live } = sources(
        5,
        [4, 5].map((rv) => ({ resourceVersion: rv, event: { type: 'MODIFIED', object: `w${rv}` } })),
      );
      // The client disconnects (a killed reflector, a cut proxy) while the server reads.
      const changesAfter = src.changesAfter;
      src.changesAfter = (rv, limit) => (res.destroy(), changesAfter(rv, limit));
      src.currentObjects = async () => (res.destroy(), { objects: [], resourceVersion: 5 });
      await (
        await registry.prepare({ resourceVersion, bookmarks: true, encode: (o) => o }, src, 0)
      )(res as unknown as ServerResponse);
      expect(registry.openWatches).toBe(0);
      expect(live.observed).toBe(false);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('live fan-out', () => {
    type Payload = { name: string; size?: number };
    /** Live changes from a real ChangeFeed: each write carries one shared object. */
    function feedSources(feed: ChangeFeed): WatchSources<Payload> {
      return {
        head: async () => 0,
        currentObjects: async () => ({ objects: [], resourceVersion: 0 }),
        changesAfter: async () => ({ changes: [], complete: true }),
        subscribe: (listener, failed) =>
          feed.subscribe((write) => listener({ resourceVersion: write.resourceVersion, event: { type: 'ADDED', object: write.after.object as unknown as Payload } }), failed),
        bookmark: (rv) => ({ rv }),
      };
    }
    const publish = (feed: ChangeFeed, resourceVersion: number, object: Payload) => feed.publish({ resourceVersion, after: { object } } as unknown as CommittedWrite);
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    async function open(registry: WatchRegistry, feed: ChangeFeed, encode: WatchObjectEncoder<Payload>) {
      const res = new RecordingResponse();
      await (
        await registry.prepare({ resourceVersion: 0, bookmarks: false, encode }, feedSources(feed), 0)
      )(res as unknown as ServerResponse);
      return res;
    }

    it('encodes a change once for every watcher that shares its encoder', async () => {
      const registry = new WatchRegistry();
      const feed = new ChangeFeed();
      const encoded: string[] = [];
      const shared: WatchObjectEncoder<Payload> = (o) => (encoded.push(o.name), o);
      const watchers = await Promise.all(Array.from({ length: 5 }, () => open(registry, feed, shared)));
      publish(feed, 1, { name: 'first' }); // a watcher's first event is its own (Table headers)
      publish(feed, 2, { name: 'second' });
      publish(feed, 3, { name: 'third' });
      await nextTurn();
      for (const res of watchers) expect(res.lines().map((l) => l.object.name)).toEqual(['first', 'second', 'third']);
      expect(encoded).toEqual([...Array(5).fill('first'), 'second', 'third']);
      registry.beforeApplicationShutdown();
    });

    it('the writes one turn brings leave each watcher in one socket write', async () => {
      const registry = new WatchRegistry();
      const feed = new ChangeFeed();
      const watchers = await Promise.all(Array.from({ length: 3 }, () => open(registry, feed, (o) => o)));
      const before = watchers.map((res) => res.socketWrites);
      // Given three commits published in one turn (one group-commit batch),
      for (const rv of [1, 2, 3]) publish(feed, rv, { name: `w${rv}` });
      await nextTurn();
      // then every watcher got all three in one write.
      watchers.forEach((res, i) => {
        expect(res.lines().map((l) => l.object.name)).toEqual(['w1', 'w2', 'w3']);
        expect(res.socketWrites - before[i]).toBe(1);
      });
      registry.beforeApplicationShutdown();
    });

    it('a watcher that cannot encode a change is closed; the others still get it', async () => {
      const registry = new WatchRegistry();
      const feed = new ChangeFeed();
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const healthy = await open(registry, feed, (o) => o);
      const broken = await open(registry, feed, (o) => {
        if (o.name === 'poison') throw new Error('cannot encode');
        return o;
      });
      publish(feed, 1, { name: 'ok' });
      publish(feed, 2, { name: 'poison' });
      publish(feed, 3, { name: 'later' });
      await nextTurn();
      expect(healthy.lines().map((l) => l.object.name)).toEqual(['ok', 'poison', 'later']);
      expect(broken.lines().map((l) => l.object.name)).toEqual(['ok']);
      expect(broken.writableEnded).toBe(true);
      expect(registry.openWatches).toBe(1);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('cannot encode'));
      logged.mockRestore();
      registry.beforeApplicationShutdown();
    });

    it('over the shared backlog budget, the watcher holding the most is closed though each is under its own limit', async () => {
      const budget = new BacklogBudget();
      budget.maxTotalBytes = 3000;
      const registry = new WatchRegistry(undefined, undefined, budget);
      const feed = new ChangeFeed();
      const quick = await open(registry, feed, (o) => o);
      const slow = await open(registry, feed, (o) => o);
      const slower = await open(registry, feed, (o) => o);
      slow.stalled = true;
      slower.stalled = true;
      try {
        for (let rv = 1; rv <= 10; rv++) publish(feed, rv, { name: 'x'.repeat(100) });
        await nextTurn();
        slow.flush(); // slow reads once; slower never does
        for (let rv = 11; rv <= 20; rv++) publish(feed, rv, { name: 'x'.repeat(100) });
        await nextTurn();
        expect(slower.writableEnded).toBe(true);
        expect(slow.writableEnded).toBe(false);
        expect(quick.writableEnded).toBe(false);
        expect(quick.lines()).toHaveLength(20);
        expect(budget.evictions).toBe(1);
      } finally {
        registry.beforeApplicationShutdown();
      }
    });
  });
});
