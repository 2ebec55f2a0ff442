import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Subject } from 'rxjs';
import { TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import { WatchRegistry } from './watch-registry';
import type { WatchChange, WatchSources } from './watch-session';

/** Just enough of a ServerResponse to record what a watch writes. */
class RecordingResponse extends EventEmitter {
  status = 0;
  body = '';
  writableEnded = false;
  writableLength = 0;
  writableNeedDrain = false;
  writeHead(status: number) {
    this.status = status;
    return this;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.body += chunk;
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
    return this.body.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  }
}

function sources(head: number, history: WatchChange<string>[] = []) {
  const live = new Subject<WatchChange<string>>();
  const src: WatchSources<string> = {
    head: () => head,
    currentObjects: () => ['current'],
    changesAfter: (rv, limit) => {
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
    await registry.prepare({ resourceVersion: 3, bookmarks: false, encode: (o) => o }, sources(20).src, 10)(res as unknown as ServerResponse);
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

  it('refuses a resourceVersion beyond the head before streaming', () => {
    expect(() => new WatchRegistry().prepare({ resourceVersion: 21, bookmarks: false, encode: (o) => o }, sources(20).src, 0)).toThrow(TooLargeResourceVersionError);
  });

  it('replays history, then follows live changes that come after it, skipping ones already replayed', async () => {
    const registry = new WatchRegistry();
    const res = new RecordingResponse();
    const { src, live } = sources(5, [
      { resourceVersion: 4, event: { type: 'MODIFIED', object: 'four' } },
      { resourceVersion: 5 },
    ]);
    await registry.prepare({ resourceVersion: 3, bookmarks: false, encode: (o) => o.toUpperCase() }, src, 0)(res as unknown as ServerResponse);
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
});
