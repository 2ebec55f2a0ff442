// In-process fan-out of committed writes (watchers, the history feed, metrics). Published only
// after commit, so nothing downstream ever sees a write that could still roll back. Delivery runs
// on a later turn of the event loop, after the writer has been answered, and each listener is
// isolated: one that throws is logged, unsubscribed (a reader that missed a write must not go on
// as if it had not) and told through its `failed` callback, while the others still hear of the
// write; so a reader can never fail an acknowledged write nor crash the process. Plain callbacks,
// not rxjs: rxjs rethrows a subscriber's error asynchronously, which would bring the process down.
import { Injectable, Logger } from '@nestjs/common';
import type { LoggedWrite } from '../store/ports/committed-event-write';

export type WriteListener = (write: LoggedWrite) => void;

export interface FeedSubscription {
  unsubscribe(): void;
}

@Injectable()
export class ChangeFeed {
  private readonly logger = new Logger('ChangeFeed');
  private readonly listeners = new Map<WriteListener, ((error: unknown) => void) | undefined>();
  private readonly ownCommitListeners = new Set<WriteListener>();
  private readonly listenedCallbacks = new Set<() => void>();
  private subscribed = 0;
  private pending: LoggedWrite[] = [];
  private scheduled = false;
  private published = 0;

  /** The resourceVersion of the newest write published (0 before the first since start). */
  get latestResourceVersion(): number {
    return this.published;
  }

  /** Queues a committed write; listeners hear of it, in commit order, once the current turn ends. */
  publish(write: LoggedWrite): void {
    this.published = write.resourceVersion;
    this.pending.push(write);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.deliver());
  }

  subscribe(listener: WriteListener, failed?: (error: unknown) => void): FeedSubscription {
    // A listener may be subscribed more than once: each subscription is its own entry.
    const entry: WriteListener = (write) => listener(write);
    const first = this.listeners.size === 0;
    this.listeners.set(entry, failed);
    this.subscribed++;
    if (first) for (const callback of this.listenedCallbacks) callback();
    return { unsubscribe: () => this.listeners.delete(entry) };
  }

  /**
   * Hears of the writes this process committed, as it commits them, and of no other (a counter of
   * what this process appended). With several writers (PostgreSQL replicas) a listener of the
   * whole log makes the process read every other writer's writes back; one of these does not.
   */
  subscribeOwnCommits(listener: WriteListener): FeedSubscription {
    const entry: WriteListener = (write) => listener(write);
    this.ownCommitListeners.add(entry);
    return { unsubscribe: () => this.ownCommitListeners.delete(entry) };
  }

  /** This process committed `write` (its place in the log's order is the publisher's business: publish). */
  committedHere(write: LoggedWrite): void {
    for (const listener of this.ownCommitListeners) {
      try {
        listener(write);
      } catch (error) {
        this.ownCommitListeners.delete(listener);
        this.logger.error(`a listener of this process's commits failed at resourceVersion ${write.resourceVersion} and was dropped: ${String(error)}`);
      }
    }
  }

  /** Calls `callback` whenever the whole log gains a listener after having none (a follower that stopped hearing of writes starts again). */
  onListened(callback: () => void): void {
    this.listenedCallbacks.add(callback);
  }

  /** Whether anything listens to the whole log now (a follower with nobody to feed need not read it). */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** Subscriptions to the whole log made so far (a follower tells whether one came while it looked away). */
  get subscriptions(): number {
    return this.subscribed;
  }

  /**
   * The log lost writes this feed published (a failover, pg-log-follower.ts): every listener that
   * can be told is ended with `error` (its reader starts again from the log); a counter that
   * cannot be told goes on. The feed goes on from `head`.
   */
  rewound(head: number, error: Error): void {
    this.published = head;
    this.pending = [];
    for (const [listener, failed] of [...this.listeners]) {
      if (!failed) continue;
      this.listeners.delete(listener);
      try {
        failed(error);
      } catch (cleanupError) {
        this.logger.error(`a change feed listener could not be ended after a rewind: ${String(cleanupError)}`);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  private deliver(): void {
    this.scheduled = false;
    const writes = this.pending;
    this.pending = [];
    const listeners = [...this.listeners.keys()];
    for (const write of writes) {
      for (const listener of listeners) {
        // One that unsubscribed while an earlier listener ran (a watcher closed) hears nothing more.
        if (!this.listeners.has(listener)) continue;
        try {
          listener(write);
        } catch (error) {
          this.dropFailed(listener, write, error);
        }
      }
    }
  }

  private dropFailed(listener: WriteListener, write: LoggedWrite, error: unknown): void {
    const failed = this.listeners.get(listener);
    this.listeners.delete(listener);
    this.logger.error(`a change feed listener failed at resourceVersion ${write.resourceVersion} and was dropped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    try {
      failed?.(error);
    } catch (cleanupError) {
      this.logger.error(`a failed change feed listener could not be closed: ${String(cleanupError)}`);
    }
  }
}
