// Every open watch stream, whatever it watches: the limits they share, and shutdown, which must
// end them (an open stream would otherwise hold the HTTP server open forever).
import { BeforeApplicationShutdown, Injectable, Optional } from '@nestjs/common';
import { BacklogBudget } from '../feed/backlog-budget';
import { MetricsService } from '../observability/metrics.service';
import { ChangeFeed } from '../feed/change-feed';
import type { ServerResponse } from 'node:http';
import { TooLargeResourceVersionError, tooOldResourceVersion } from '../domain/errors/domain-errors';
import { ApiError } from '../kube-api/api-errors';
import { statusForError } from '../kube-api/kube-status';
import { WatchObjectEncoder, WatchSession, WatchSources } from './watch-session';
import type { WatchWire } from './watch-wire';

/** kube-apiserver's default: a random duration in [MinRequestTimeout, 2 × MinRequestTimeout), 30 min. */
const MIN_REQUEST_TIMEOUT_MS = 30 * 60 * 1000;
/** The longest timer Node keeps (about 24.8 days): a longer one would fire at once instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WatchRequest<T> {
  /** undefined or 0: start with ADDED for the current objects. */
  resourceVersion?: number;
  bookmarks: boolean;
  timeoutSeconds?: number;
  encode: WatchObjectEncoder<T>;
  wire?: WatchWire;
}

@Injectable()
export class WatchRegistry implements BeforeApplicationShutdown {
  private readonly sessions = new Set<WatchSession<unknown>>();
  private shuttingDown = false;
  bookmarkIntervalMs = 60_000;
  maxBacklogBytes = 16 * 1024 * 1024;
  /** Beyond this many open streams a new watch is refused with 429 (clients retry). */
  maxWatches = 1000;

  constructor(
    @Optional() metrics?: MetricsService,
    @Optional() feed?: ChangeFeed,
    @Optional() private readonly budget?: BacklogBudget,
  ) {
    if (metrics && feed) {
      metrics.watchStats = () => {
        // How far behind what has been published (a watcher can only be sent published writes).
        const head = feed.latestResourceVersion;
        let maxLag = 0;
        for (const session of this.sessions) maxLag = Math.max(maxLag, head - session.position);
        return { open: this.sessions.size, maxLag };
      };
    }
  }

  get openWatches(): number {
    return this.sessions.size;
  }

  /**
   * Checks the starting point before any byte is sent (a too-new resourceVersion is an HTTP
   * error, not a stream) and returns the function that streams until the watch ends.
   */
  async prepare<T>(request: WatchRequest<T>, sources: WatchSources<T>, oldestResumable: number): Promise<(res: ServerResponse) => Promise<void>> {
    // A watch opened once shutdown has ended the others would hold the HTTP server open until its
    // timeout: refused as kube-apiserver refuses requests while it shuts down (clients retry).
    if (this.shuttingDown) throw new ApiError(429, 'TooManyRequests', 'The apiserver is shutting down, please try again later.', { retryAfterSeconds: 1 });
    if (this.sessions.size >= this.maxWatches) {
      throw new ApiError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });
    }
    const rv = request.resourceVersion;
    const head = await sources.head();
    if (rv !== undefined && rv > head) throw new TooLargeResourceVersionError(rv, head);
    const expired = rv !== undefined && rv > 0 && rv < oldestResumable;
    return async (res) => {
      const session = new WatchSession<T>(res, sources, {
        resourceVersion: rv,
        bookmarks: request.bookmarks,
        encode: request.encode,
        wire: request.wire,
        timeoutMs: request.timeoutSeconds ? Math.min(request.timeoutSeconds * 1000, MAX_TIMER_MS) : MIN_REQUEST_TIMEOUT_MS * (1 + Math.random()),
        maxBacklogBytes: this.maxBacklogBytes,
        bookmarkIntervalMs: this.bookmarkIntervalMs,
        budget: this.budget,
      });
      this.sessions.add(session as WatchSession<unknown>);
      void session.done.then(() => this.sessions.delete(session as WatchSession<unknown>));
      if (this.shuttingDown) {
        session.close();
        return;
      }
      if (expired) {
        session.fail(statusForError(tooOldResourceVersion(rv, oldestResumable))!);
        return;
      }
      await session.start();
    };
  }

  /** Ends every open stream (their clients watch again from where they were). */
  closeAll(): void {
    for (const session of this.sessions) session.close();
  }

  beforeApplicationShutdown(): void {
    this.shuttingDown = true;
    this.closeAll();
  }
}
