// The mirror's reflector (client-go tools/cache/reflector.go, as a recorder rather than a cache),
// one per watched resource (Services; Events about Services: ReflectedResource):
// a paged LIST, then a WATCH with bookmarks from the list's resourceVersion; when a watch ends,
// watch again from the last resourceVersion recorded — no relist — and relist only when the
// source no longer holds the changes since then (410 Expired). Every observation is recorded
// with its resume point in the same transaction, so after a crash the stored point is exactly
// what is durable. Observations are written pipelined (the store commits them in arrival order,
// in shared transactions); each write moves the resume point only from the one before it, so
// if one fails, every later one fails too and the next watch starts right after the last stored.
import { Logger } from '@nestjs/common';
import { ObservedFoldError } from '../domain/mirror/observed-change';
import type { ObservedVia } from '../domain/mirror/observed-change';
import type { Service } from '../domain/service.types';
import type { Clock } from '../shared/clock';
import { MirrorSourceMismatchError } from '../store/ports/mirror-source-store';
import type { MirrorSource, MirrorSourceStore } from '../store/ports/mirror-source-store';
import { Backoff, type BackoffOptions } from './backoff';
import { ListPages, type ListPage } from './list-pages';
import type { Observation, ObservationRecorder } from './observation';
import type { ReflectedResource } from './reflected-resource';
import type { ReflectorStatus } from './reflector-status';
import { SourceExpiredError, isExpired } from './source-expired-error';
import { pause } from '../shared/abortable-pause';

/** What the reflector needs of the source API server. */
export interface SourceApi {
  getJson(path: string, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<unknown>;
  watch(path: string, options: { signal: AbortSignal; idleTimeoutMs: number }): AsyncIterable<unknown>;
}

export interface ReflectorOptions {
  /** Items per LIST page (client-go: 500). */
  pageSize: number;
  /** The watch's server-side timeout; unset: random in [5, 10) minutes, as client-go. */
  watchTimeoutSeconds?: number;
  /** A watch on which nothing arrives for this long is given up and started again (a stalled source). */
  idleTimeoutMs: number;
  /** Observations written but not yet durable, at most. */
  maxInFlight: number;
  backoff: BackoffOptions;
  random: () => number;
}

interface WatchEvent {
  type?: string;
  object?: { metadata?: { resourceVersion?: string; namespace?: string; name?: string }; code?: number; reason?: string; message?: string };
}

const DEFAULT_NAMESPACE_KUBERNETES = '/api/v1/namespaces/default/services/kubernetes';

/**
 * Observations of a list in flight at most. A list's all come at once, and each write in flight
 * keeps its object and what the store made of it alive across young collections, into the old
 * generation: with the watch's 256, a list of 10,000 peaked 50–60 MB higher.
 */
const LIST_IN_FLIGHT = 32;

export class Reflector<T> {
  private readonly abort = new AbortController();
  private running?: Promise<void>;
  private relistNeeded = false;
  /** Source resourceVersions of observations the events cannot express: skipped (logged) when seen again. */
  private readonly unrecordable = new Set<string>();
  private readonly logger: Logger;

  constructor(
    private readonly source: SourceApi,
    private readonly server: string,
    private readonly kind: ReflectedResource<T>,
    private readonly sources: MirrorSourceStore,
    private readonly status: ReflectorStatus,
    private readonly clock: Clock,
    private readonly options: ReflectorOptions,
  ) {
    this.logger = new Logger(kind.resource === 'services' ? 'MirrorReflector' : `MirrorReflector(${kind.resource})`);
  }

  /**
   * Binds the store to the source cluster (the uid of its default/kubernetes Service). Rejects
   * with MirrorSourceMismatchError when the store records another cluster.
   */
  async claimSource(): Promise<MirrorSource> {
    const kubernetes = (await this.source.getJson(DEFAULT_NAMESPACE_KUBERNETES, { signal: this.abort.signal, timeoutMs: 30_000 })) as Service;
    const uid = kubernetes?.metadata?.uid;
    if (!uid) throw new Error(`the source's default/kubernetes Service has no uid`);
    return this.sources.claim(uid, this.server, this.clock.now());
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const backoff = new Backoff(this.options.backoff);
    let claimed = false;
    let expiredInARow = 0;
    while (!this.abort.signal.aborted) {
      try {
        if (!claimed) {
          await this.claimSource();
          claimed = true;
        }
        let position = this.kind.storedPosition(await this.sources.load());
        if (position === null || this.relistNeeded) {
          const via: ObservedVia = position === null && !this.relistNeeded ? 'list' : 'relist';
          position = await this.list(via, position);
          this.relistNeeded = false;
        }
        this.status.inSync();
        const progressed = await this.watch(position);
        if (progressed) {
          backoff.reset();
          expiredInARow = 0;
        } else {
          // A watch that ended before sending anything: never a busy loop against such a source.
          await pause(backoff.next(), this.abort.signal);
        }
      } catch (error) {
        if (this.abort.signal.aborted) return;
        if (isExpired(error)) {
          // The source compacted past our place: relist, at once the first time (client-go
          // does), after a backoff when it happens again without progress in between.
          this.relistNeeded = true;
          this.status.relisted();
          this.status.outOfSync(`relisting: ${(error as Error).message}`);
          this.logger.warn(`the source no longer holds the changes since the stored resourceVersion (${(error as Error).message}): relisting`);
          if (expiredInARow++ === 0) continue;
        } else {
          const message = describe(error);
          this.status.outOfSync(message);
          this.logger.warn(`mirror: ${message}; retrying`);
          if (isFatal(error)) {
            this.logger.error(`mirror stopped: ${message}`);
            return;
          }
        }
        await pause(backoff.next(), this.abort.signal);
      }
    }
  }

  /**
   * A complete paged LIST, reconciled against the store page by page; returns the list's
   * resourceVersion, stored as the resume point once every item is. Of the store it keeps only the
   * names of the live objects, of the list at most a page and the next.
   */
  private async list(via: ObservedVia, storedPosition: string | null): Promise<string> {
    const observedAt = this.clock.now().toISOString();
    const pages = new ListPages((query) => this.source.getJson(this.path(query), { signal: this.abort.signal, timeoutMs: 60_000 }), this.options.pageSize);
    const pipeline = new Pipeline<T>(
      this.kind.recorder,
      this.status,
      Math.min(this.options.maxInFlight, LIST_IN_FLIGHT),
      this.clock,
      () => undefined,
      (rv) => this.unrecordable.add(rv),
    );
    const notListed = new Set(await this.kind.recordedNames());
    let listResourceVersion = '';
    let listed = 0;
    let gone = 0;
    const recordObjects = async (walk: AsyncIterable<ListPage>) => {
      for await (const page of walk) {
        listResourceVersion = page.resourceVersion;
        for (const item of page.items) {
          const decoded = this.decode(item, page.resourceVersion);
          if (!decoded) continue;
          listed++;
          await pipeline.submit({ kind: 'object', object: decoded.object, via, sourceResourceVersion: decoded.resourceVersion, observedAt });
          if (pipeline.failure) return;
        }
      }
    };
    try {
      if (notListed.size === 0) {
        // Nothing recorded that could be gone: each page is recorded as it comes.
        await recordObjects(pages.read());
      } else {
        // Deletions first (a Service created since may hold a gone one's cluster IP, a name may
        // be another incarnation's): a walk of the names finds what is gone, a second walk of the
        // same pages records the objects.
        for await (const page of pages.read({ again: true })) {
          listResourceVersion = page.resourceVersion;
          for (const item of page.items) notListed.delete(listedKey(item));
        }
        if (!listResourceVersion) throw new Error('the source answered a LIST without a resourceVersion');
        for (const key of notListed) {
          const [namespace, name] = splitKey(key);
          await pipeline.submit({ kind: 'gone', namespace, name, lastKnown: null, via, sourceResourceVersion: listResourceVersion, observedAt });
          gone++;
          if (pipeline.failure) break;
        }
        notListed.clear();
        if (!pipeline.failure) await recordObjects(pages.again());
      }
    } finally {
      // Nothing of this list is still being written when it ends, however it ends.
      await pipeline.drain();
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- re-throws what the store threw, as it threw it
    if (pipeline.failure) throw pipeline.failure;
    if (!listResourceVersion) throw new Error('the source answered a LIST without a resourceVersion');
    await this.kind.recorder.record({ kind: 'position', resume: { resourceVersion: listResourceVersion, after: storedPosition } });
    this.logger.log(`${via === 'list' ? 'listed' : 'relisted'} ${listed} ${this.kind.description} at source resourceVersion ${listResourceVersion} (${gone} gone)`);
    return listResourceVersion;
  }

  /**
   * Watches from `position` until the watch ends (its timeout, the source closing it) or fails.
   * Returns whether anything arrived; throws SourceExpiredError on 410.
   */
  private async watch(position: string): Promise<boolean> {
    const timeout = this.options.watchTimeoutSeconds ?? 300 + Math.floor(this.options.random() * 300);
    const path = this.path(`watch=true&resourceVersion=${encodeURIComponent(position)}&allowWatchBookmarks=true&timeoutSeconds=${timeout}`);
    // Stopped while listing: the abort has fired already, and the listener below would never hear it.
    if (this.abort.signal.aborted) return false;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    this.abort.signal.addEventListener('abort', onAbort);
    const pipeline = new Pipeline<T>(
      this.kind.recorder,
      this.status,
      this.options.maxInFlight,
      this.clock,
      () => stop.abort(),
      (rv) => this.unrecordable.add(rv),
    );
    let last = position;
    let progressed = false;
    try {
      for await (const raw of this.source.watch(path, { signal: stop.signal, idleTimeoutMs: this.options.idleTimeoutMs })) {
        const now = this.clock.now();
        this.status.observed(now);
        progressed = true;
        const event = raw as WatchEvent;
        const resourceVersion = event.object?.metadata?.resourceVersion ?? '';
        if (event.type === 'ERROR') {
          const code = event.object?.code;
          const message = event.object?.message ?? 'watch error';
          if (code === 410 || event.object?.reason === 'Expired' || event.object?.reason === 'Gone') throw new SourceExpiredError(message);
          throw new Error(`the source's watch answered an error (${code ?? '?'} ${event.object?.reason ?? ''}): ${message}`);
        }
        if (!resourceVersion) throw new Error(`a ${event.type ?? 'typeless'} watch event without a resourceVersion`);
        const resume = { resourceVersion, after: last };
        last = resourceVersion;
        const observation = this.watchObservation(event, resume, now.toISOString());
        await pipeline.submit(observation);
        if (pipeline.failure) break;
      }
    } catch (error) {
      // A failed write aborted the watch: its error is the one to report.
      if (!pipeline.failure) throw error;
    } finally {
      this.abort.signal.removeEventListener('abort', onAbort);
      stop.abort();
      await pipeline.drain();
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- re-throws what the store threw, as it threw it
    if (pipeline.failure) throw pipeline.failure;
    return progressed;
  }

  private watchObservation(event: WatchEvent, resume: { resourceVersion: string; after: string }, observedAt: string): Observation<T> {
    const rv = resume.resourceVersion;
    if (event.type === 'BOOKMARK' || this.unrecordable.has(rv)) return { kind: 'position', resume };
    const object = this.decode(event.object, rv)?.object;
    if (!object) return { kind: 'position', resume };
    if (event.type === 'DELETED') return { kind: 'gone', ...this.kind.keyOf(object), lastKnown: object, via: 'watch', sourceResourceVersion: rv, observedAt, resume };
    if (event.type === 'ADDED' || event.type === 'MODIFIED') return { kind: 'object', object, via: 'watch', sourceResourceVersion: rv, observedAt, resume };
    throw new Error(`an unknown watch event type ${JSON.stringify(event.type)}`);
  }

  /** The collection's path at the source with its field selector and `query`. */
  private path(query: string): string {
    const selector = this.kind.fieldSelector ? `fieldSelector=${encodeURIComponent(this.kind.fieldSelector)}&` : '';
    return `${this.kind.path}?${selector}${query}`;
  }

  /** The source's object in stored form; null (logged, skipped) when it cannot be read as one at all. */
  private decode(raw: unknown, fallbackResourceVersion: string): { object: T; resourceVersion: string } | null {
    try {
      const { object, resourceVersion } = this.kind.decode(raw);
      return { object, resourceVersion: resourceVersion ?? fallbackResourceVersion };
    } catch (error) {
      this.logger.error(`skipping an object at source resourceVersion ${fallbackResourceVersion} that is not one of the ${this.kind.description}: ${(error as Error).message}`);
      return null;
    }
  }
}

/** Observations in flight to the store, in order, at most `limit` at once; the first failure stops the rest. */
class Pipeline<T> {
  private readonly inFlight = new Set<Promise<void>>();
  failure: unknown;

  constructor(
    private readonly recorder: ObservationRecorder<T>,
    private readonly status: ReflectorStatus,
    private readonly limit: number,
    private readonly clock: Clock,
    private readonly onFailure: () => void,
    /** A change the events cannot express (logged): skipped when the watch brings it again. */
    private readonly onUnrecordable: (sourceResourceVersion: string) => void,
  ) {}

  async submit(observation: Observation<T>): Promise<void> {
    const received = this.clock.now().getTime();
    const write: Promise<void> = this.recorder.record(observation).then(
      (outcome) => {
        this.inFlight.delete(write);
        if (observation.kind !== 'position') this.status.recordedWrites(observation.via, outcome.resourceVersions.length, (this.clock.now().getTime() - received) / 1000);
      },
      (error: unknown) => {
        this.inFlight.delete(write);
        if (error instanceof ObservedFoldError && observation.kind !== 'position' && observation.resume) {
          this.onUnrecordable(observation.resume.resourceVersion);
        }
        this.failure ??= error;
        this.onFailure();
      },
    );
    this.inFlight.add(write);
    if (this.inFlight.size >= this.limit) await Promise.race(this.inFlight);
  }

  async drain(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }
}

/** namespace/name of an item as the source listed it (the key recordedNames gives). */
function listedKey(item: unknown): string {
  const metadata = (item as { metadata?: { namespace?: string; name?: string } } | null)?.metadata;
  return `${metadata?.namespace ?? ''}/${metadata?.name ?? ''}`;
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf('/');
  return [key.slice(0, at), key.slice(at + 1)];
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Errors no retry can cure: the store belongs to another cluster. */
function isFatal(error: unknown): boolean {
  return error instanceof MirrorSourceMismatchError;
}
