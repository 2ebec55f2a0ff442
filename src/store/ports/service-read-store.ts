// The read side of the store port for Services: what GET, LIST and watch need from any storage
// engine. Asynchronous, so an engine whose driver is (node-postgres) can implement it.

export interface ListPageRequest {
  namespace?: string;
  /** Start strictly after this (namespace, name). */
  after?: { namespace: string; name: string };
  /** Read the snapshot as of this resourceVersion; omitted = the live table. */
  asOf?: number;
  limit: number;
}

export interface ServiceRow {
  namespace: string;
  name: string;
  /** The stored JSON, as GET serves it. */
  json: string;
}

export interface ServiceReads {
  /** The newest resourceVersion in the log (0 when it is empty). */
  head(): Promise<number>;
  /**
   * The newest compaction's horizon: the oldest resourceVersion at which objects can still be
   * read (0 when the history was never compacted). Below it only the facts remain.
   */
  horizon(): Promise<number>;
  /** The newest resourceVersion recorded at or before an RFC 3339 time (0 before the first write). */
  resourceVersionAt(time: string): Promise<number>;
  /** The first log position recorded at or after an RFC 3339 time (head + 1 when there is none). */
  firstPositionAtOrAfter(time: string): Promise<number>;
  /** The first position of the first write whose resourceVersion is >= rv. */
  writeStartAtOrAfter(resourceVersion: number): Promise<number>;
  /** The live object's stored JSON, exactly as GET serves it. */
  liveJson(namespace: string, name: string): Promise<string | undefined>;
  /** The stored JSON of the revision current at `resourceVersion`, if the name existed then. */
  jsonAsOf(namespace: string, name: string, resourceVersion: number): Promise<string | undefined>;
  /** One page in (namespace, name) order. */
  listPage(request: ListPageRequest): Promise<ServiceRow[]>;
}

export interface ServiceReadStore extends ServiceReads {
  /** Whether the engine answers a trivial query now (readiness). Never rejects. */
  ready(): Promise<boolean>;
  /** Runs reads that must agree with each other (a LIST's head and its pages) in one snapshot. */
  inSnapshot<T>(reads: (snapshot: ServiceReads) => Promise<T>): Promise<T>;
}

/** DI token of the engine's ServiceReadStore. */
export const SERVICE_READ_STORE = Symbol('SERVICE_READ_STORE');
