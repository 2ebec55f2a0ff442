// Feeds the change feed of one replica from the shared log, so that its watchers (and every other
// feed listener) hear of every write of every replica, once each, in resourceVersion order.
//
// A notification is a hint, never the data: each append transaction sends pg_notify on
// WRITES_CHANNEL with the log's head (delivered at COMMIT, dropped on rollback); this replica
// LISTENs on a connection of its own and, on each hint, reads the log after the last
// resourceVersion it published (`position > delivered ORDER BY position`) and publishes those
// writes in order. Because positions are given under the append lock in commit order without
// holes (pg-event-store.ts), "everything after what I delivered" never skips a write. A hint
// lost while the listening connection was down is made up for by a catch-up when it is back, and
// by a slow timer that catches up whatever happens.
//
// A failover to a standby that had not received the newest writes (asynchronous replication)
// rewinds the log: positions this replica published may be gone, or name other writes. Each time
// the store reconnected after losing a connection (PrimaryLocator's generation), the follower
// first checks that the write it published last is still in the log; when it is not, every
// listener that can be told is ended (watchers get 410 Expired and list again) and the feed goes
// on from the new head.
//
// The replica's own writes are published by the follower too, never directly by the write path:
// a local write and a remote one committed just before it must reach watchers in rv order, and
// only one publisher going through the log in order can guarantee that. The write path says
// "committed at this rv" (`committed`): when that write is the next position after the last one
// published, it is published as the write path holds it, without reading it back; otherwise the
// log is read up to it, which saves waiting for the notification's round trip.
//
// A replica with nobody listening to the whole log (no watch, no history feed: the writes' counter
// listens to this replica's own commits only) reads nothing back: it notes how far the log goes
// (its own commit's resourceVersion, the safety net's look at the head), which is all a listener
// that comes later needs, since it reads the log itself before it hears from the feed. It does not
// even take the hints (UNLISTEN): each would wake its listening session and the replica once per
// batch of every replica, for nothing. The first listener makes it LISTEN again and read the log
// after what it noted. So the cost of a write does not grow with the number of replicas that only
// serve it.
import { Logger } from '@nestjs/common';
import type { Client } from 'pg';
import type { ChangeFeed } from '../../feed/change-feed';
import { LogRewoundError } from '../../feed/log-rewound-error';
import type { LoggedWrite } from '../ports/committed-event-write';
import { type PgCommittedWriteReader, writeMark } from './pg-committed-write-reader';

/** The store's connections: one of its own to LISTEN on, and how many times they were made again after a loss. */
export interface FollowedServer {
  newClient(config: { connectionTimeoutMillis: number }): Client;
  readonly locator: { readonly generation: number };
}

/** The channel every append transaction notifies (payload: the log's head after it). */
export const WRITES_CHANNEL = 'svctrail_writes';

export interface PgLogFollowerOptions {
  /** How often the log is read without a hint (the safety net), ms. */
  safetyIntervalMs?: number;
  /** Waits between attempts to reconnect the listening connection, ms (doubling up to max). */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Writes read per catch-up query. */
  pageSize?: number;
}

const DEFAULTS: Required<PgLogFollowerOptions> = { safetyIntervalMs: 2_000, reconnectMinMs: 250, reconnectMaxMs: 5_000, pageSize: 500 };

export class PgLogFollower {
  private readonly logger = new Logger('PgLogFollower');
  private readonly options: Required<PgLogFollowerOptions>;
  /** The resourceVersion of the newest write published to the feed. */
  private delivered = 0;
  /** What tells that write from another (markAt), and the store's generation it was last checked in. */
  private mark: string | undefined;
  private checkedGeneration = 0;
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private safetyTimer: NodeJS.Timeout | undefined;
  private listener: Client | undefined;
  /** Whether `listener` asked for the hints (LISTEN), as far as the statements sent on it say. */
  private hearing = false;
  private listening: Promise<void> | undefined;
  private wakeReconnect: (() => void) | undefined;

  constructor(
    private readonly server: FollowedServer,
    private readonly reader: PgCommittedWriteReader,
    private readonly feed: ChangeFeed,
    options: PgLogFollowerOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Starts from the log's head now (older writes are read by watchers from the log). */
  async start(): Promise<void> {
    this.checkedGeneration = this.server.locator.generation;
    this.delivered = await this.reader.head();
    this.mark = await this.reader.markAt(this.delivered);
    this.feed.onListened(() => this.tune());
    this.safetyTimer = setInterval(() => this.wake(), this.options.safetyIntervalMs);
    this.safetyTimer.unref();
    this.listening = this.listen();
  }

  /** The resourceVersion of the newest write this replica's feed has published. */
  get deliveredResourceVersion(): number {
    return this.delivered;
  }

  /**
   * This replica committed `write`. When it is the log's next write and nothing is being read,
   * it is published as the write path holds it (the same fold a read would make); otherwise the
   * log is read up to it now rather than at the notification.
   */
  committed(write: LoggedWrite): void {
    this.feed.committedHere(write);
    if (this.stopped) return;
    if (!this.draining && write.events[0].position === this.delivered + 1 && this.server.locator.generation === this.checkedGeneration) {
      if (this.feed.listening) this.feed.publish(write);
      this.delivered = write.resourceVersion;
      this.mark = writeMark(write);
      return;
    }
    this.wake(write.resourceVersion);
  }

  /** Reads the log after what was delivered, unless `head` says there is nothing new. */
  wake(head?: number): void {
    if (this.stopped) return;
    const checked = this.server.locator.generation === this.checkedGeneration;
    if (head !== undefined && head <= this.delivered && checked) return;
    if (head !== undefined && checked && !this.draining && !this.feed.listening) {
      // Nobody to feed: only how far the log goes is kept. Every write up to `head` is committed,
      // and a listener that comes reads the log itself before it hears from the feed.
      this.delivered = head;
      this.mark = undefined;
      return;
    }
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => (this.draining = undefined));
  }

  /**
   * Asks for the hints (LISTEN) while the feed has a listener, and not (UNLISTEN) while it has
   * none: every hint wakes each listening session and replica, once per batch of every replica,
   * and one with nobody to feed only notes how far the log goes, which its own commits and the
   * safety net's reads tell it too. Once LISTEN is in effect the log is read after what was
   * delivered, so a write committed before it is read rather than missed.
   */
  private tune(): void {
    const client = this.listener;
    if (!client || this.stopped || this.hearing === this.feed.listening) return;
    const hearing = (this.hearing = this.feed.listening);
    // The connection queues its statements: LISTEN and UNLISTEN take effect in the order asked.
    client.query(`${hearing ? 'LISTEN' : 'UNLISTEN'} ${WRITES_CHANNEL}`).then(
      () => (hearing ? this.wake() : undefined),
      // The connection failed: listen() connects again and asks again.
      () => undefined,
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.safetyTimer);
    this.wakeReconnect?.();
    await this.listener?.end().catch(() => undefined);
    await this.listening;
    await this.draining;
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      let page;
      try {
        // The first read after positions were only noted: what the last one holds, to check it after a reconnection.
        if (this.mark === undefined && this.feed.listening && this.server.locator.generation === this.checkedGeneration) this.mark = await this.reader.markAt(this.delivered);
        await this.checkNotRewound();
        if (!this.feed.listening) {
          await this.skipToHead();
          return;
        }
        page = await this.reader.writesAfter(this.delivered, this.options.pageSize);
      } catch (error) {
        // The database is unreachable: the next hint, reconnection or tick tries again.
        this.logger.warn(`could not read the log after resourceVersion ${this.delivered}: ${(error as Error).message}`);
        return;
      }
      for (const write of page.writes) {
        this.feed.publish(write);
        this.delivered = write.resourceVersion;
      }
      if (page.writes.length) this.mark = writeMark(page.writes[page.writes.length - 1]);
      if (!page.complete) this.again = true;
    } while (this.again && !this.stopped);
  }

  /** Nobody to feed: moves to the log's head without reading it, unless someone subscribed meanwhile. */
  private async skipToHead(): Promise<void> {
    const subscriptions = this.feed.subscriptions;
    const head = await this.reader.head();
    // A listener that came during the query may have read the log only up to below `head`.
    if (this.feed.subscriptions !== subscriptions || head <= this.delivered) return;
    this.delivered = head;
    this.mark = undefined;
  }

  /** After the store reconnected: the write published last must still be where it was. */
  private async checkNotRewound(): Promise<void> {
    const generation = this.server.locator.generation;
    if (generation === this.checkedGeneration) return;
    if (this.mark === undefined && !this.feed.listening) {
      // Nothing was published since the last position was only noted: start again from the head.
      const subscriptions = this.feed.subscriptions;
      const head = await this.reader.head();
      const mark = await this.reader.markAt(head);
      if (this.feed.subscriptions !== subscriptions) this.feed.rewound(head, new LogRewoundError(this.delivered, head));
      this.delivered = head;
      this.mark = mark;
      this.checkedGeneration = generation;
      return;
    }
    const found = await this.reader.markAt(this.delivered);
    if (found !== this.mark) {
      const head = await this.reader.head();
      const error = new LogRewoundError(this.delivered, head);
      this.logger.warn(`${error.message}: watchers are ended with 410 Expired`);
      this.delivered = head;
      this.mark = await this.reader.markAt(head);
      this.feed.rewound(head, error);
    }
    this.checkedGeneration = generation;
  }

  /** Holds a LISTEN connection for as long as the follower runs, reconnecting when it drops. */
  private async listen(): Promise<void> {
    let backoff = this.options.reconnectMinMs;
    while (!this.stopped) {
      const client = this.server.newClient({ connectionTimeoutMillis: 10_000 });
      const ended = new Promise<void>((resolve) => {
        client.on('error', () => resolve());
        client.on('end', () => resolve());
      });
      client.on('notification', (message) => {
        const head = Number(message.payload);
        // The feed's last listener left: hints wake this session and this process for nothing.
        this.tune();
        this.wake(Number.isSafeInteger(head) && head > 0 ? head : undefined);
      });
      try {
        await client.connect();
        this.listener = client;
        this.hearing = false;
        this.tune();
        backoff = this.options.reconnectMinMs;
        // Hints sent while nobody listened are lost: read whatever they were about.
        this.wake();
        if (this.stopped) await client.end();
        await ended;
      } catch (error) {
        if (!this.stopped) this.logger.warn(`the log listener is not connected: ${(error as Error).message}`);
      } finally {
        this.listener = undefined;
        this.hearing = false;
        await client.end().catch(() => undefined);
      }
      if (this.stopped) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff);
        this.wakeReconnect = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeReconnect = undefined;
      backoff = Math.min(backoff * 2, this.options.reconnectMaxMs);
      // The listener was down: writes may have been missed; catch up now the reconnect is attempted.
      this.wake();
    }
  }
}
