// The core/v1 Events API's reads, whatever the engine: the Events svctrail derives from the
// Services' log, and the Events controllers wrote (their live table and their facts).
import type { KubeEventFact } from '../../domain/kube-event/kube-event.facts';
import type { LoggedEvent, RecordedEvent } from './recorded-event';

export interface KubeEventQuery {
  namespace?: string;
  /** involvedObject.name / uid when a field selector pins them (index lookups). */
  name?: string;
  uid?: string;
  afterPosition: number;
  /** Snapshot: nothing after this position. */
  untilPosition: number;
  limit: number;
}

/** A written Event as it was at a snapshot: its JSON as served then, at the position of that write. */
export interface WrittenKubeEvent {
  position: number;
  json: string;
}

export interface WrittenEventsQuery {
  namespace?: string;
  afterPosition: number;
  untilPosition: number;
  limit: number;
}

/** A live Event whose lease ran out, and the write whose lease it was. */
export interface ExpiredKubeEvent {
  namespace: string;
  name: string;
  resourceVersion: number;
}

export interface KubeEvents {
  /** The newest position in the log (the current global resourceVersion). */
  head(): Promise<number>;
  /** The Services' log rows (the derived Events' source) in (afterPosition, untilPosition], in order. */
  page(query: KubeEventQuery): Promise<RecordedEvent[]>;
  /** The log row at a position, of either kind. */
  at(position: number): Promise<LoggedEvent | undefined>;
  /** Rows of whole writes after a resourceVersion, of both kinds (a page never splits a write). */
  writesAfter(resourceVersion: number, limit: number): Promise<{ events: LoggedEvent[]; complete: boolean }>;
  /** A live written Event's JSON as served. */
  written(namespace: string, name: string): Promise<string | undefined>;
  /**
   * Written Events as they were at `untilPosition` whose last write then lies in
   * (afterPosition, untilPosition], oldest write first, at most `limit`: a consistent page
   * however much was written since; null when too much was written since to reconstruct it (as
   * kube-apiserver's continue token after a compaction).
   */
  writtenPage(query: WrittenEventsQuery): Promise<WrittenKubeEvent[] | null>;
  /** An Event's fact just before a stream version (a watch's previous object), if any. */
  factBefore(streamId: string, streamVersion: number): Promise<RecordedEvent<KubeEventFact> | undefined>;
  /** Live Events whose lease ran out at `now`, oldest lease first. */
  expired(now: string, limit: number): Promise<ExpiredKubeEvent[]>;
  /** The names of live written Events after `after` in (namespace, name) order, at most `limit` (a mirror's relist reconciles against them). */
  liveNames(after: { namespace: string; name: string } | undefined, limit: number): Promise<{ namespace: string; name: string }[]>;
}

/** DI token of the engine's KubeEvents. */
export const KUBE_EVENTS = Symbol('KUBE_EVENTS');
