// One watch stream: catch up from the event log (or from the current objects for
// resourceVersion 0), then follow the change feed. Writers never wait for watchers: a watcher
// whose socket backlog grows past its limit is closed, and it can resume from its last
// resourceVersion because the log still has everything. Besides its own limit, every stream's
// backlog counts against one shared budget (BacklogBudget), which closes the fullest streams
// when the sum grows too large.
import type { ServerResponse } from 'node:http';
import type { BacklogBudget, BudgetedStream } from '../feed/backlog-budget';
import type { FeedSubscription } from '../feed/change-feed';
import { LogRewoundError } from '../feed/log-rewound-error';
import { ExpiredError } from '../domain/errors/domain-errors';
import { type KubeStatus, statusForError } from '../kube-api/kube-status';
import { EncodedEventMemo } from './encoded-event-memo';
import { JSON_WATCH_WIRE, type WatchWire } from './watch-wire';

/**
 * One committed write as this watcher sees it: its resourceVersion, and the event it produces
 * for this watcher's selectors (none when the write does not concern it).
 */
export interface WatchChange<T> {
  resourceVersion: number;
  event?: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T };
}

/**
 * Where one watch reads from; the resource (Services, Events) and the selectors are bound in.
 * Reads are asynchronous (a store may be a database server); the feed is the only push source.
 */
export interface WatchSources<T> {
  head(): Promise<number>;
  /** Current matching objects and the resourceVersion they are as of, for a resourceVersion-0 watch. */
  currentObjects(): Promise<{ objects: T[]; resourceVersion: number }>;
  /** Changes after a resourceVersion, whole writes only; `complete` when the log's end was reached. */
  changesAfter(resourceVersion: number, limit: number): Promise<{ changes: WatchChange<T>[]; complete: boolean }>;
  /** `failed` is called, and the subscription ended, when the listener (or the mapping) throws. */
  subscribe(listener: (change: WatchChange<T>) => void, failed?: (error: unknown) => void): FeedSubscription;
  /** The object of a BOOKMARK event at a resourceVersion. */
  bookmark(resourceVersion: number): unknown;
}

/** Turns an object into the event's `object` (the object, or a one-row Table for kubectl get -w). */
export type WatchObjectEncoder<T> = (object: T, first: boolean) => unknown;

export interface WatchOptions<T> {
  /** undefined (or 0): start with ADDED for the current objects. */
  resourceVersion?: number;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  timeoutMs: number;
  maxBacklogBytes: number;
  encode: WatchObjectEncoder<T>;
  /** JSON lines unless the watcher asked for protobuf. */
  wire?: WatchWire;
  /** The budget shared by every stream's backlog; none: only maxBacklogBytes applies. */
  budget?: BacklogBudget;
}

/**
 * Writes read from the log per step of a catch-up. A page stays alive until it is sent, across
 * the waits for the socket: at 500, every resume's page outlived a scavenge and was promoted
 * (about 490 KB per resume of 910 writes), and a resume load pushed the server's RSS from 180 to
 * 270 MB; at 100, 84 KB per resume and 180 MB, at the same resume rate.
 */
const CATCH_UP_PAGE = 100;

/**
 * Live changes held while a watcher catches up from the log. Past this many the buffer is
 * dropped and the catch-up runs again from where it got to (the log still has them all).
 */
const MAX_HELD_DURING_CATCH_UP = 10_000;

/**
 * Encoded events, shared by the watchers of one change: N watchers with the same encoder and
 * wire cost one encode. One memo per wire (the wires are shared constants), keyed inside by the
 * encoder function (serviceWatchEncoder hands one function to every watcher of a representation).
 */
const encodedByWire = new Map<WatchWire, EncodedEventMemo<string | Uint8Array>>();
function memoFor(wire: WatchWire): EncodedEventMemo<string | Uint8Array> {
  let memo = encodedByWire.get(wire);
  if (!memo) encodedByWire.set(wire, (memo = new EncodedEventMemo()));
  return memo;
}

export class WatchSession<T> implements BudgetedStream {
  private subscription?: FeedSubscription;
  private timers: NodeJS.Timeout[] = [];
  private lastResourceVersion = 0;

  /** The last resourceVersion this watcher has been brought up to (for lag metrics). */
  get position(): number {
    return this.lastResourceVersion;
  }
  private first = true;
  private corked = false;
  private readonly wire: WatchWire;
  private closed = false;
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    private readonly res: ServerResponse,
    private readonly sources: WatchSources<T>,
    private readonly options: WatchOptions<T>,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.wire = options.wire ?? JSON_WATCH_WIRE;
    res.on('close', () => this.close());
  }

  /** Sends the headers at once: clients wait for them before they can time out (client-protocol §7.1). */
  async start(): Promise<void> {
    this.res.writeHead(200, { 'content-type': this.wire.contentType, 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
    this.res.flushHeaders();
    this.timers.push(setTimeout(() => this.close(), this.options.timeoutMs));
    if (this.options.resourceVersion === undefined || this.options.resourceVersion === 0) {
      const current = await this.sources.currentObjects();
      this.lastResourceVersion = current.resourceVersion;
      for (const object of current.objects) {
        if (!(await this.send('ADDED', object))) return;
      }
    } else {
      this.lastResourceVersion = this.options.resourceVersion;
    }
    await this.catchUpAndFollow();
    // A client gone meanwhile was closed already: a timer started now would never be cleared.
    if (this.options.bookmarks && !this.closed) {
      this.timers.push(setInterval(() => this.bookmark(), this.options.bookmarkIntervalMs));
    }
  }

  /** Ends the stream with an ERROR event carrying a Status (e.g. 410 Expired). */
  fail(status: KubeStatus): void {
    this.res.writeHead(200, { 'content-type': this.wire.contentType, 'transfer-encoding': 'chunked' });
    this.res.end(this.wire.frame('ERROR', status));
    this.close();
  }

  /** Ends a stream that may have sent writes the log no longer holds with 410 Expired (client-go lists again). */
  private expire(error: LogRewoundError): void {
    if (this.closed) return;
    const status = statusForError(new ExpiredError(error.message))!;
    if (!this.res.headersSent) this.res.writeHead(200, { 'content-type': this.wire.contentType, 'transfer-encoding': 'chunked' });
    this.res.end(this.wire.frame('ERROR', status));
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.unsubscribe();
    for (const timer of this.timers) clearTimeout(timer);
    if (!this.res.writableEnded) this.res.end();
    this.options.budget?.release(this);
    this.resolveDone();
  }

  /**
   * Subscribes to the feed first and holds what it brings, then pages through the log until a
   * page comes back short, then delivers the held changes the log did not already cover. Every
   * write is in the log before the feed hears of it, so nothing falls between the two, however
   * long the reads take.
   */
  private async catchUpAndFollow(): Promise<void> {
    for (;;) {
      // Closed while it read the current objects: a subscription taken now would never end.
      if (this.closed) return;
      let held: WatchChange<T>[] | undefined = [];
      let live = false;
      this.subscription = this.sources.subscribe(
        (change) => {
          if (live) {
            // Several changes may share one write's resourceVersion: the log delivered whole writes.
            if (change.resourceVersion > this.lastResourceVersion) this.deliver(change);
          } else if (held) {
            held.push(change);
            if (held.length > MAX_HELD_DURING_CATCH_UP) held = undefined;
          }
        },
        // A change this stream could not take ends this stream only (never with a gap): the client
        // resumes. A log that lost writes this stream may have sent cannot be resumed: 410, relist.
        (error) => (error instanceof LogRewoundError ? this.expire(error) : this.evict()),
      );
      if (!(await this.catchUp())) return;
      if (!held) {
        // Too much arrived meanwhile: catch up again from the log rather than hold it all.
        this.subscription.unsubscribe();
        continue;
      }
      const caughtUpTo = this.lastResourceVersion;
      live = true;
      for (const change of held) {
        if (change.resourceVersion > caughtUpTo && !this.deliver(change)) return;
      }
      return;
    }
  }

  /** Delivers the log after the last resourceVersion up to its end; false when the stream closed. */
  private async catchUp(): Promise<boolean> {
    for (;;) {
      if (this.closed) return false;
      const page = await this.sources.changesAfter(this.lastResourceVersion, CATCH_UP_PAGE);
      // Waits for the socket between writes (never inside one: they share a resourceVersion), so
      // a page of large objects is not buffered whole.
      for (let i = 0; i < page.changes.length; i++) {
        const change = page.changes[i];
        if (!this.deliver(change)) return false;
        if (this.res.writableNeedDrain && page.changes[i + 1]?.resourceVersion !== change.resourceVersion) {
          await this.drained();
          if (this.closed) return false;
        }
      }
      if (page.complete) return !this.closed;
      await this.drained();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private deliver(change: WatchChange<T>): boolean {
    this.lastResourceVersion = change.resourceVersion;
    return change.event ? this.write(change.event.type, change.event.object) : !this.closed;
  }

  private async send(type: string, object: T): Promise<boolean> {
    if (!this.write(type, object)) return false;
    await this.drained();
    return !this.closed;
  }

  private write(type: string, object: unknown): boolean {
    if (this.closed) return false;
    const line = (encoded: unknown) => this.wire.frame(type, encoded);
    const encode = this.options.encode;
    // A first event may differ per watcher (a Table's column headers), so it is never shared.
    const bytes = type === 'BOOKMARK' ? line(object) : this.first ? line(encode(object as T, true)) : memoFor(this.wire).get(object, type, encode, () => line(encode(object as T, false)));
    this.first = false;
    this.cork();
    this.res.write(bytes);
    if (this.res.writableLength > this.options.maxBacklogBytes) {
      // Too slow: drop it rather than buffer without bound; it resumes from its last resourceVersion.
      this.evict();
      return false;
    }
    this.options.budget?.track(this, this.res.writableLength);
    return !this.closed;
  }

  /**
   * The events written in one turn (a commit batch reaches every watcher in one turn) leave as
   * one socket write, so a TLS record and a syscall per batch, not per event.
   */
  private cork(): void {
    if (this.corked) return;
    this.corked = true;
    this.res.cork();
    process.nextTick(() => {
      this.corked = false;
      this.res.uncork();
    });
  }

  backlog(): number {
    return this.res.writableEnded ? 0 : this.res.writableLength;
  }

  evict(): void {
    this.res.destroy();
    this.close();
  }

  private bookmark(): void {
    // Every committed write reaches deliver(), filtered or not, so this is the watcher's true position.
    this.write('BOOKMARK', this.sources.bookmark(this.lastResourceVersion));
  }

  private drained(): Promise<void> {
    if (this.closed || this.res.writableLength === 0 || !this.res.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }
}
