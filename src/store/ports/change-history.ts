// The log as accepted writes (one item per resourceVersion): what the change log, the feed and
// field ownership read, whatever the engine.
import type { OwnershipWrite } from '../../domain/field-management';
import type { Service } from '../../domain/service.types';
import type { RecordedEvent } from './recorded-event';
import type { EventRow } from './event-row';

export interface ChangeRange {
  namespace?: string;
  name?: string;
  uid?: string;
  actor?: string;
  eventType?: string;
  fieldManager?: string;
  /** Writes with resourceVersion in [fromRv, toRv]. */
  fromRv: number;
  toRv: number;
  /** Position where the range starts (the first event of the write at or after fromRv). */
  fromPosition: number;
}

/** The filters of a range, without its bounds. */
export type ChangeFilters = Omit<ChangeRange, 'fromRv' | 'toRv' | 'fromPosition'>;

export interface RecordedWrite {
  resourceVersion: number;
  uid: string;
  namespace: string;
  name: string;
  events: RecordedEvent[];
  previous: Service | null;
  object: Service | null;
}

/** One write as stored: its events' rows and its patch's JSON text. */
export interface StoredWrite {
  resourceVersion: number;
  uid: string;
  namespace: string;
  name: string;
  events: EventRow[];
  patchJson: string;
}

/** An Event's write as the log stores it: its one fact's row (the Event as written, and who wrote it). */
export interface StoredEventWrite {
  kind: 'Event';
  resourceVersion: number;
  row: EventRow;
}

/** Any write of the log as the feed reads it: a Service's or an Event's. */
export type StoredLogWrite = StoredWrite | StoredEventWrite;

export function isStoredEventWrite(write: StoredLogWrite): write is StoredEventWrite {
  return 'kind' in write && write.kind === 'Event';
}

/** The log as accepted writes, for the change log, the feed and field ownership (either engine). */
export interface ChangeHistory {
  /** The resourceVersions of up to `limit` matching writes, oldest first. */
  matchingWrites(range: ChangeRange, limit: number): Promise<number[]>;
  /** One write: its events, and the Service before and after it (null before a create, after a delete). */
  write(resourceVersion: number): Promise<RecordedWrite>;
  /** One write as the change log serves it: its event rows and its patch's JSON text. */
  storedWrite(resourceVersion: number): Promise<StoredWrite>;
  /**
   * Up to `limit` matching writes as the change log serves them, oldest first, read in one pass
   * over the range (no statement per write). Only for filters that keep writes whole.
   */
  matchingStoredWrites(range: ChangeRange, limit: number): Promise<StoredWrite[]>;
  /**
   * Up to `limit` matching writes' managedFields before and after each, below a compaction's
   * horizon as above it, oldest first, read over the range (no statement per write). Only for
   * filters that keep writes whole.
   */
  managedFieldsWrites(range: ChangeRange, limit: number): Promise<OwnershipWrite[]>;
  /** Up to `limit` writes (Services' and Events') after a resourceVersion and at or before `untilRv`, oldest first. */
  storedWritesAfter(resourceVersion: number, untilRv: number, limit: number): Promise<StoredLogWrite[]>;
}

/**
 * Whether a filter keeps or drops a write's events all together: every one but the event type is
 * a property of the write (its stream, its request), the same on each of its events.
 */
export function filtersWholeWrites(filters: ChangeFilters): boolean {
  return filters.eventType === undefined;
}

/** DI token of the engine's ChangeHistory. */
export const CHANGE_HISTORY = Symbol('CHANGE_HISTORY');
