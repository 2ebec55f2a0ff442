// The change feed: every write after position P as NDJSON, one ServiceChange per line, oldest
// first. Without follow it ends at the head as of the request; with follow=true it then streams
// new writes as they commit (like tail -f) until timeoutSeconds, the client leaving, or shutdown.
// A reader resumes with after=<metadata.resourceVersion of the last line it processed>.
import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import { TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import { ChangeFeed } from '../feed/change-feed';
import type { CommittedWrite } from '../projections/projection';
import { ChangeHistoryRepository, RecordedWrite } from '../store/change-history-repository';
import { LogPositions } from '../store/log-positions';
import { serviceChange } from './history-items';
import { HistoryQuery } from './history-query';

const PARAMS = ['after', 'follow', 'timeoutSeconds'];
const PAGE = 200;
/** A follower whose socket backlog grows past this is cut off; it resumes from its last line. */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;
const DEFAULT_FOLLOW_MS = 30 * 60 * 1000;

export interface FeedRequest {
  after: number;
  follow: boolean;
  timeoutMs: number;
}

@Injectable()
export class ChangeFeedService implements BeforeApplicationShutdown {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly changes: ChangeHistoryRepository,
    private readonly positions: LogPositions,
    private readonly feed: ChangeFeed,
  ) {}

  /** Validates before any byte is sent: bad input and a too-new position are plain HTTP errors. */
  parse(rawQuery: unknown): FeedRequest {
    const query = HistoryQuery.parse('feed', rawQuery, PARAMS);
    const after = query.resourceVersion('after') ?? 0;
    const head = this.positions.head();
    if (after > head) throw new TooLargeResourceVersionError(after, head);
    const timeout = query.positiveInteger('timeoutSeconds');
    return { after, follow: query.boolean('follow') ?? false, timeoutMs: timeout ? timeout * 1000 : DEFAULT_FOLLOW_MS };
  }

  async stream(request: FeedRequest, res: ServerResponse): Promise<void> {
    let closed = false;
    let subscription: Subscription | undefined;
    let timer: NodeJS.Timeout | undefined;
    const close = () => {
      if (closed) return;
      closed = true;
      subscription?.unsubscribe();
      if (timer) clearTimeout(timer);
      this.open.delete(close);
      if (!res.writableEnded) res.end();
    };
    this.open.add(close);
    res.on('close', close);
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    let last = request.after;
    const send = (write: RecordedWrite): boolean => {
      if (closed || write.resourceVersion <= last) return !closed;
      last = write.resourceVersion;
      res.write(`${JSON.stringify(serviceChange(write))}\n`);
      if (res.writableLength > MAX_BACKLOG_BYTES) {
        res.destroy();
        close();
      }
      return !closed;
    };
    // Without follow the stream ends at the head as of now; with it, catch up to whatever is newest.
    const until = request.follow ? Number.MAX_SAFE_INTEGER : this.positions.head();
    for (;;) {
      const page = this.changes.writesAfter(last, until, PAGE);
      for (const write of page) if (!send(write)) return;
      if (page.length < PAGE) break;
      await drained(res);
      if (closed) return;
    }
    if (!request.follow) return close();
    // The last catch-up read and the subscription happen in one synchronous step: nothing falls between.
    subscription = this.feed.writes.subscribe((write) => send(liveWrite(write)));
    timer = setTimeout(close, request.timeoutMs);
  }

  beforeApplicationShutdown(): void {
    for (const close of [...this.open]) close();
  }
}

function liveWrite(write: CommittedWrite): RecordedWrite {
  return {
    resourceVersion: write.resourceVersion,
    uid: write.streamId,
    namespace: write.namespace,
    name: write.name,
    events: [...write.events],
    previous: write.before.object,
    object: write.after.object,
  };
}

function drained(res: ServerResponse): Promise<void> {
  if (res.writableLength === 0 || !res.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
