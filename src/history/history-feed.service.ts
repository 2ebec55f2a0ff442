// The change feed: every write after position P as NDJSON, oldest first, one line per write: a
// ServiceChange, or an EventOccurrence for a write of a core/v1 Event; and each finished
// compaction of the history as a Compaction line after the newest write recorded when it began
// (compaction-placements.ts). Without follow it ends at the head as of the request; with
// follow=true it then streams new writes as they commit (like tail -f) until timeoutSeconds, the
// client leaving, or shutdown. A reader resumes with after=<metadata.resourceVersion of the last
// line it processed>. Followers are capped (429 beyond), and their backlogs count against the
// budget watches share.
import { BeforeApplicationShutdown, Inject, Injectable, Optional } from '@nestjs/common';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import type { ServerResponse } from 'node:http';
import { TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import { BacklogBudget, BudgetedStream } from '../feed/backlog-budget';
import { ChangeFeed, FeedSubscription } from '../feed/change-feed';
import { ApiError } from '../kube-api/api-errors';
import { isEventWrite, type LoggedWrite } from '../store/ports/committed-event-write';
import type { CommittedWrite } from '../store/ports/committed-write';
import { CHANGE_HISTORY, isStoredEventWrite } from '../store/ports/change-history';
import type { RecordedWrite, ChangeHistory } from '../store/ports/change-history';
import { serviceChange, serviceChangeJson } from './history-items';
import { eventOccurrence, eventWriteOfCommit, eventWriteOfRow } from './event-occurrence';
import { WriteSources } from './write-sources';
import { MIRROR_ACTORS, MIRROR_OBSERVATIONS } from '../store/ports/mirror-source-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import type { AuditActorStore } from '../store/ports/audit-actor-store';
import { HistoryQuery } from './history-query';
import { CompactionPlacements, type PlacedCompaction } from './compaction-placements';
import { compactionItem } from './compactions.service';
import { HISTORY_COMPACTOR } from '../store/ports/history-compaction';
import type { HistoryCompactor } from '../store/ports/history-compaction';

const PARAMS = ['after', 'follow', 'timeoutSeconds'];
/** Writes held for a follower while it reads the log; past this it reads the log again instead. */
const MAX_HELD_WRITES = 10_000;
const PAGE = 200;
/** Lines are sent in chunks of about this many characters (the last of a page sooner). */
const CHUNK_CHARS = 64 * 1024;
/** A follower whose socket backlog grows past this is cut off; it resumes from its last line. */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;
const DEFAULT_FOLLOW_MS = 30 * 60 * 1000;
/** How often live followers look for compactions finished meanwhile (by any process or replica). */
const COMPACTION_POLL_MS = 2000;
/** One encoded line per live write, however many followers send it. */
const encodedLines = new WeakMap<LoggedWrite, string>();

export interface FeedRequest {
  after: number;
  follow: boolean;
  timeoutMs: number;
}

@Injectable()
export class HistoryFeedService implements BeforeApplicationShutdown {
  private readonly open = new Set<() => void>();
  private followers = 0;
  /** Beyond this many open follow=true streams a new one is refused with 429 (clients retry). */
  maxFollowers = 100;

  get openFollowers(): number {
    return this.followers;
  }

  constructor(
    @Inject(CHANGE_HISTORY) private readonly changes: ChangeHistory,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
    private readonly feed: ChangeFeed,
    private readonly budget: BacklogBudget,
    /** Mirror mode only: where each recorded write came from, and who made it. */
    @Optional() @Inject(MIRROR_OBSERVATIONS) observations?: MirrorObservations,
    @Optional() @Inject(MIRROR_ACTORS) actors?: Pick<AuditActorStore, 'actors'>,
    @Inject(HISTORY_COMPACTOR) compactor?: Pick<HistoryCompactor, 'list'>,
  ) {
    this.sources = new WriteSources(observations, actors);
    this.compactions = new CompactionPlacements(compactor ?? { list: async () => [] }, reads);
  }

  private readonly compactions: CompactionPlacements;

  private readonly sources: WriteSources;

  /** Validates before any byte is sent: bad input and a too-new position are plain HTTP errors. */
  async parse(rawQuery: unknown): Promise<FeedRequest> {
    const query = HistoryQuery.parse('feed', rawQuery, PARAMS);
    const after = query.resourceVersion('after') ?? 0;
    const head = await this.reads.head();
    if (after > head) throw new TooLargeResourceVersionError(after, head);
    const timeout = query.positiveInteger('timeoutSeconds');
    const follow = query.boolean('follow') ?? false;
    if (follow && this.followers >= this.maxFollowers) {
      throw new ApiError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });
    }
    return { after, follow, timeoutMs: timeout ? timeout * 1000 : DEFAULT_FOLLOW_MS };
  }

  async stream(request: FeedRequest, res: ServerResponse): Promise<void> {
    let closed = false;
    let subscription: FeedSubscription | undefined;
    let timer: NodeJS.Timeout | undefined;
    const stream: BudgetedStream = {
      backlog: () => (res.writableEnded ? 0 : res.writableLength),
      evict: () => {
        res.destroy();
        close();
      },
    };
    if (request.follow) this.followers++;
    const close = () => {
      if (closed) return;
      closed = true;
      subscription?.unsubscribe();
      if (timer) clearTimeout(timer);
      this.open.delete(close);
      if (request.follow) this.followers--;
      this.budget.release(stream);
      if (!res.writableEnded) res.end();
    };
    this.open.add(close);
    res.on('close', close);
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    let last = request.after;
    // Lines are written a chunk at a time: a write per line costs a TLS record and a chunk header each.
    let pending = '';
    const flush = (): boolean => {
      if (closed || !pending) return !closed;
      res.write(pending);
      pending = '';
      if (res.writableLength > MAX_BACKLOG_BYTES) stream.evict();
      else this.budget.track(stream, res.writableLength);
      return !closed;
    };
    const send = (resourceVersion: number, line: () => string): boolean => {
      if (closed || resourceVersion <= last) return !closed;
      last = resourceVersion;
      pending += line();
      return pending.length < CHUNK_CHARS || flush();
    };
    // Compactions sent (or placed before the request's start): each is sent once, after its write.
    let compactionsSeen = 0;
    const sendCompactions = (placed: PlacedCompaction[], through: number, catchingUp = true): boolean => {
      for (const { compaction, after } of placed) {
        if (compaction.id <= compactionsSeen || after > through) continue;
        compactionsSeen = compaction.id;
        // Found while catching up at or before where the request started: the reader is past it.
        if (catchingUp && after <= request.after) continue;
        pending += `${JSON.stringify({ ...compactionItem(compaction), metadata: { ...compactionItem(compaction).metadata, resourceVersion: String(last) } })}\n`;
      }
      return pending.length < CHUNK_CHARS || flush();
    };
    // A follower subscribes before it reads the log and holds what the feed brings meanwhile:
    // every write is in the log before the feed hears of it, so nothing falls between the two.
    let held: LoggedWrite[] | undefined;
    let live = false;
    const follow = () => {
      held = [];
      subscription = this.feed.subscribe(
        (write) => {
          if (live) {
            if (write.resourceVersion > last && send(write.resourceVersion, () => encodedLine(write))) flush();
          } else if (held) {
            held.push(write);
            if (held.length > MAX_HELD_WRITES) held = undefined;
          }
        },
        () => stream.evict(),
      );
    };
    if (request.follow) follow();
    // Without follow the stream ends at the head as of now; with it, catch up to whatever is newest.
    const until = request.follow ? Number.MAX_SAFE_INTEGER : await this.reads.head();
    for (;;) {
      const page = await this.changes.storedWritesAfter(last, until, PAGE);
      const mirrored = await this.sources.of(page.map((w) => w.resourceVersion));
      const placed = await this.compactions.finished();
      if (!sendCompactions(placed, last)) return;
      // Waits for the socket between writes, so a page of large objects is not buffered whole.
      for (const write of page) {
        const m = mirrored.get(write.resourceVersion);
        const line = isStoredEventWrite(write)
          ? () => `${JSON.stringify(eventOccurrence(eventWriteOfRow(write.row), m?.source, m?.actor))}\n`
          : () => `${serviceChangeJson(write, m?.source, m?.actor)}\n`;
        if (!send(write.resourceVersion, line)) return;
        if (!sendCompactions(placed, write.resourceVersion)) return;
        if (res.writableNeedDrain) {
          await drained(res);
          if (closed) return;
        }
      }
      if (!flush()) return;
      if (page.length === PAGE) {
        await drained(res);
        continue;
      }
      if (!request.follow || held) break;
      // Too much arrived while catching up: read it from the log instead, then hold again.
      subscription?.unsubscribe();
      follow();
    }
    if (!request.follow) return close();
    live = true;
    for (const write of held ?? []) {
      if (write.resourceVersion > last && !send(write.resourceVersion, () => encodedLine(write))) return;
    }
    if (!flush()) return;
    held = undefined;
    timer = setTimeout(close, request.timeoutMs);
    // Compactions finish outside the write path (another process, another replica): looked for
    // while the follower is live, and sent after the newest write it has.
    const poll = setInterval(() => {
      void this.compactions.finished().then(
        (placed) => sendCompactions(placed, Number.MAX_SAFE_INTEGER, false) && flush(),
        () => undefined,
      );
    }, COMPACTION_POLL_MS);
    poll.unref();
    res.on('close', () => clearInterval(poll));
  }

  beforeApplicationShutdown(): void {
    for (const close of [...this.open]) close();
  }
}

function encodedLine(write: LoggedWrite): string {
  let line = encodedLines.get(write);
  if (line === undefined) {
    const o = write.observation;
    const source = o ? { resourceVersion: o.sourceResourceVersion, observedAt: o.observedAt, via: o.via } : undefined;
    const item = isEventWrite(write) ? eventOccurrence(eventWriteOfCommit(write), source) : serviceChange(liveWrite(write), source);
    encodedLines.set(write, (line = `${JSON.stringify(item)}\n`));
  }
  return line;
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
