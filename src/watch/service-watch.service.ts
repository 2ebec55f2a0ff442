// Opens watch streams on Services and keeps track of them, so shutdown can end them (an open
// stream would otherwise hold the HTTP server open forever).
import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { map } from 'rxjs';
import { ExpiredError, TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import type { Service } from '../domain/service.types';
import { ChangeFeed } from '../feed/change-feed';
import { statusForError } from '../kube-api/kube-status';
import { SqliteEventStore } from '../store/event-store';
import { ServiceChangeLog } from '../store/service-change-log';
import { ServiceRepository } from '../store/service-repository';
import { changeFromWrite } from './service-change';
import { matchesFilter, WatchFilter } from './watch-filter';
import { WatchOptions, WatchSession, WatchSources } from './watch-session';

/** kube-apiserver's default: a random duration in [MinRequestTimeout, 2 × MinRequestTimeout), 30 min. */
const MIN_REQUEST_TIMEOUT_MS = 30 * 60 * 1000;

export interface OpenWatchRequest extends Omit<WatchOptions, 'timeoutMs' | 'maxBacklogBytes' | 'bookmarkIntervalMs'> {
  timeoutSeconds?: number;
}

@Injectable()
export class ServiceWatchService implements BeforeApplicationShutdown {
  private readonly sessions = new Set<WatchSession>();
  private readonly sources: WatchSources;
  bookmarkIntervalMs = 60_000;
  maxBacklogBytes = 16 * 1024 * 1024;

  constructor(
    private readonly eventStore: SqliteEventStore,
    private readonly repository: ServiceRepository,
    private readonly changeLog: ServiceChangeLog,
    private readonly feed: ChangeFeed,
  ) {
    this.sources = {
      head: () => this.eventStore.head(),
      currentObjects: (filter) => this.currentObjects(filter),
      changesAfter: (rv, limit) => this.changeLog.changesAfter(rv, limit),
      subscribe: (listener) => this.feed.writes.pipe(map(changeFromWrite)).subscribe(listener),
    };
  }

  get openWatches(): number {
    return this.sessions.size;
  }

  /**
   * Checks the starting point before any byte is sent (a too-new resourceVersion is an HTTP
   * error, not a stream) and returns the function that streams until the watch ends.
   */
  prepare(request: OpenWatchRequest): (res: ServerResponse) => Promise<void> {
    const rv = request.resourceVersion;
    const head = this.eventStore.head();
    if (rv !== undefined && rv > head) throw new TooLargeResourceVersionError(rv, head);
    const expired = rv !== undefined && rv > 0 && rv < this.changeLog.oldestResumable();
    return async (res) => {
      const session = new WatchSession(res, this.sources, {
        ...request,
        timeoutMs: request.timeoutSeconds ? request.timeoutSeconds * 1000 : MIN_REQUEST_TIMEOUT_MS * (1 + Math.random()),
        maxBacklogBytes: this.maxBacklogBytes,
        bookmarkIntervalMs: this.bookmarkIntervalMs,
      });
      this.sessions.add(session);
      void session.done.then(() => this.sessions.delete(session));
      if (expired) {
        const oldest = this.changeLog.oldestResumable();
        session.fail(statusForError(new ExpiredError(`too old resource version: ${rv} (${oldest})`))!);
        return;
      }
      await session.start();
    };
  }

  beforeApplicationShutdown(): void {
    for (const session of this.sessions) session.close();
  }

  private currentObjects(filter: WatchFilter): Service[] {
    const out: Service[] = [];
    let after: { namespace: string; name: string } | undefined;
    for (;;) {
      const page = this.repository.listPage({ namespace: filter.namespace, after, limit: 1000 });
      for (const row of page) if (matchesFilter(filter, row.object)) out.push(row.object);
      if (page.length < 1000) return out;
      after = page[page.length - 1];
    }
  }
}
