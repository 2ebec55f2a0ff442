// Reads the log as accepted writes (one item per resourceVersion) for the history API's change
// log: which writes match, their events and actor, and the objects before and after each. The
// range is driven by the index that matches the narrowest filter (INDEXED BY, so the plan does
// not depend on statistics); the other filters are checked on the rows of that range.
import type { Service } from '../domain/service.types';
import { jsonPatchText } from '../history/json-patch-diff';
import type { DatabaseHandle } from './database';
import { toRecorded } from './event-store';
import { LogPositions } from './log-positions';
import type { RecordedEvent } from './ports/recorded-event';
import { events } from './schema';

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

export interface RecordedWrite {
  resourceVersion: number;
  uid: string;
  namespace: string;
  name: string;
  events: RecordedEvent[];
  previous: Service | null;
  object: Service | null;
}

type EventRow = typeof events.$inferSelect;

/** One write as stored: its event rows (data and actor groups still JSON text) and its patch's JSON text. */
export interface StoredWrite {
  resourceVersion: number;
  uid: string;
  namespace: string;
  name: string;
  events: EventRow[];
  patchJson: string;
}

const COLUMNS = `position, resource_version AS resourceVersion, stream_id AS streamId, stream_version AS streamVersion, namespace, name, type, data,
  recorded_at AS recordedAt, actor_user AS actorUser, actor_groups AS actorGroups, user_agent AS userAgent, field_manager AS fieldManager,
  request_id AS requestId, verb, subresource`;

/** Rows read per round while collecting distinct writes. */
const BATCH = 500;
/** Events read backwards from a write's resourceVersion to find them all in one statement. */
const WRITE_EVENTS = 8;
/** Events read per round by the feed. */
const FEED_EVENTS = 400;

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
  /** Up to `limit` writes after a resourceVersion and at or before `untilRv`, oldest first. */
  storedWritesAfter(resourceVersion: number, untilRv: number, limit: number): Promise<StoredWrite[]>;
}

/**
 * Whether a filter keeps or drops a write's events all together: every one but the event type is
 * a property of the write (its stream, its request), the same on each of its events.
 */
export function filtersWholeWrites(range: Omit<ChangeRange, 'fromRv' | 'toRv' | 'fromPosition'>): boolean {
  return range.eventType === undefined;
}

/** DI token of the engine's ChangeHistory. */
export const CHANGE_HISTORY = Symbol('CHANGE_HISTORY');

export class ChangeHistoryRepository implements ChangeHistory {
  private readonly eventsOfWrite;
  private readonly revisionAt;
  private readonly revisionBefore;
  private readonly storedPatch;
  private readonly lastEventsUpTo;
  private readonly eventsFrom;
  private readonly positions;

  constructor(private readonly handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.positions = new LogPositions(sqlite);
    this.eventsOfWrite = sqlite.prepare(`SELECT ${COLUMNS} FROM events WHERE position >= ? AND position <= ? ORDER BY position`);
    this.revisionAt = sqlite.prepare('SELECT object FROM service_revisions WHERE uid = ? AND resource_version = ?').pluck();
    this.revisionBefore = sqlite
      .prepare('SELECT object FROM service_revisions WHERE uid = ? AND resource_version < ? ORDER BY resource_version DESC LIMIT 1')
      .pluck();
    this.storedPatch = sqlite.prepare('SELECT patch FROM service_revisions WHERE uid = ? AND resource_version = ?').pluck();
    this.lastEventsUpTo = sqlite.prepare(`SELECT ${COLUMNS} FROM events WHERE position <= ? ORDER BY position DESC LIMIT ${WRITE_EVENTS}`);
    // With each write's stored patch, read on its last event (the one at the write's resourceVersion).
    this.eventsFrom = sqlite.prepare(
      `SELECT ${COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1e.$2')}, r.patch AS patch FROM events e
       LEFT JOIN service_revisions r ON e.position = e.resource_version AND r.uid = e.stream_id AND r.resource_version = e.resource_version
       WHERE e.position > ? AND e.position <= ? ORDER BY e.position LIMIT ${FEED_EVENTS}`,
    );
  }

  /** The SQL of one round (exported for the query-plan test). */
  static rangeSql(range: Omit<ChangeRange, 'fromRv' | 'toRv' | 'fromPosition'>): string {
    return `${ChangeHistoryRepository.rangeScan(range, 'position, resource_version AS rv')} LIMIT @batch`;
  }

  /**
   * The SQL that reads whole writes of a range in one pass: every event row with, on a write's
   * last event (the one at its resourceVersion), the patch its revision stores. Exported for the
   * query-plan test.
   */
  static storedWritesSql(range: Omit<ChangeRange, 'fromRv' | 'toRv' | 'fromPosition'>): string {
    const patch = `CASE WHEN position = resource_version THEN (SELECT r.patch FROM service_revisions r WHERE r.uid = events.stream_id AND r.resource_version = events.resource_version) END AS patch`;
    return ChangeHistoryRepository.rangeScan(range, `${COLUMNS}, ${patch}`);
  }

  private static rangeScan(range: Omit<ChangeRange, 'fromRv' | 'toRv' | 'fromPosition'>, columns: string): string {
    const where = ['position >= @fromPosition', 'position <= @toRv', 'resource_version >= @fromRv'];
    let index: string;
    // A stream's events in stream_version order are its events in position order.
    if (range.uid !== undefined) index = 'events_stream_version_unique';
    else if (range.name !== undefined) index = 'events_name_position';
    else if (range.namespace !== undefined) index = 'events_namespace_position';
    else if (range.actor !== undefined) index = 'events_actor_position';
    else if (range.eventType !== undefined) index = 'events_type_position';
    else index = '';
    if (range.uid !== undefined) where.push('stream_id = @uid');
    if (range.namespace !== undefined) where.push('namespace = @namespace');
    if (range.name !== undefined) where.push('name = @name');
    if (range.actor !== undefined) where.push('actor_user = @actor');
    if (range.eventType !== undefined) where.push('type = @eventType');
    if (range.fieldManager !== undefined) where.push('field_manager = @fieldManager');
    const from = index ? `events INDEXED BY ${index}` : 'events';
    const order = range.uid !== undefined ? 'stream_version' : 'position';
    return `SELECT ${columns} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${order}`;
  }

  /**
   * Up to `limit` matching writes as the change log serves them, oldest first, read in one pass
   * over the range's index like a raw reader would: no statement per write. Only for filters that
   * keep writes whole (see filtersWholeWrites); an event-type filter matches single events, so
   * its writes are found by matchingWrites and read by storedWrite.
   */
  async matchingStoredWrites(range: ChangeRange, limit: number): Promise<StoredWrite[]> {
    if (!filtersWholeWrites(range)) throw new Error('matchingStoredWrites needs filters that keep writes whole');
    const out: StoredWrite[] = [];
    let write: (EventRow & { patch: string | null })[] = [];
    const flush = () => out.push(this.withPatch(write, write[write.length - 1].patch));
    // Range rows start at the first event of a write (fromPosition is a write's start), so each
    // write is read whole; iterate stops reading as soon as the page is full.
    for (const row of this.handle.statement(ChangeHistoryRepository.storedWritesSql(range)).iterate(range) as Iterable<EventRow & { patch: string | null }>) {
      if (write.length > 0 && write[0].resourceVersion !== row.resourceVersion) {
        flush();
        write = [];
        if (out.length === limit) return out;
      }
      write.push(row);
    }
    if (write.length > 0) flush();
    return out;
  }

  /** The resourceVersions of up to `limit` matching writes, oldest first. */
  async matchingWrites(range: ChangeRange, limit: number): Promise<number[]> {
    const statement = this.handle.statement(ChangeHistoryRepository.rangeSql(range));
    const out: number[] = [];
    let fromPosition = range.fromPosition;
    // A write has one event or a few: a first round of twice the page reads about what the page
    // needs (each row costs a lookup of its table row), later rounds grow.
    let batch = Math.min(BATCH, 2 * limit);
    for (;; batch = Math.min(BATCH, 2 * batch)) {
      const rows = statement.all({ ...range, fromPosition, batch }) as { position: number; rv: number }[];
      for (const row of rows) {
        if (out[out.length - 1] === row.rv) continue;
        if (out.length === limit) return out;
        out.push(row.rv);
      }
      if (rows.length < batch) return out;
      fromPosition = rows[rows.length - 1].position + 1;
    }
  }

  /** One write: its events, and the Service before and after it (null before a create, after a delete). */
  async write(resourceVersion: number): Promise<RecordedWrite> {
    const recorded = (this.eventsOfWrite.all(this.positions.writeStart(resourceVersion), resourceVersion) as EventRow[]).map(toRecorded);
    const first = recorded[0];
    const parse = (json: string | undefined) => (json === undefined ? null : (JSON.parse(json) as Service));
    return {
      resourceVersion,
      uid: first.streamId,
      namespace: first.namespace,
      name: first.name,
      events: recorded,
      // The revision this write superseded: none before a create.
      previous: first.streamVersion === 1 ? null : parse(this.revisionBefore.get(first.streamId, resourceVersion) as string | undefined),
      object: parse(this.revisionAt.get(first.streamId, resourceVersion) as string | undefined),
    };
  }

  /**
   * One write as the change log serves it, nothing parsed: its event rows and the patch its
   * revision row stores (computed once, when it was written). A delete writes no revision: its
   * patch, like that of a row the start-up backfill has not reached, is computed from the
   * revisions as it always was.
   */
  async storedWrite(resourceVersion: number): Promise<StoredWrite> {
    return this.readStoredWrite(resourceVersion);
  }

  private readStoredWrite(resourceVersion: number): StoredWrite {
    // A write's events end at its resourceVersion: one read backwards from there finds them all,
    // unless the write has more than a few (then its first position is looked for first).
    let rows = (this.lastEventsUpTo.all(resourceVersion) as EventRow[]).filter((r) => r.resourceVersion === resourceVersion).reverse();
    if (rows.length === WRITE_EVENTS) rows = this.eventsOfWrite.all(this.positions.writeStart(resourceVersion), resourceVersion) as EventRow[];
    return this.withPatch(rows);
  }

  /** `stored`: the write's stored patch when already read with its events (null: none stored). */
  private withPatch(rows: EventRow[], stored?: string | null): StoredWrite {
    const first = rows[0];
    const resourceVersion = first.resourceVersion;
    let patchJson = stored !== undefined ? stored : (this.storedPatch.get(first.streamId, resourceVersion) as string | null | undefined);
    if (patchJson === undefined || patchJson === null) {
      const previous = first.streamVersion === 1 ? null : ((this.revisionBefore.get(first.streamId, resourceVersion) as string | undefined) ?? null);
      patchJson = jsonPatchText(previous, (this.revisionAt.get(first.streamId, resourceVersion) as string | undefined) ?? null);
    }
    return { resourceVersion, uid: first.streamId, namespace: first.namespace, name: first.name, events: rows, patchJson };
  }

  /**
   * Writes after a resourceVersion, oldest first, for the change feed: the log read in order, a
   * batch of events at a time, cut into writes (consecutive events sharing a resourceVersion).
   */
  async storedWritesAfter(resourceVersion: number, untilRv: number, limit: number): Promise<StoredWrite[]> {
    const out: StoredWrite[] = [];
    for (let after = resourceVersion; ; ) {
      const rows = this.eventsFrom.all(after, untilRv) as (EventRow & { patch: string | null })[];
      const full = rows.length === FEED_EVENTS;
      let start = 0;
      for (let i = 1; i <= rows.length; i++) {
        if (i < rows.length && rows[i].resourceVersion === rows[start].resourceVersion) continue;
        // The batch may have cut its last write short: that one is read again by the next batch.
        if (i === rows.length && full && start > 0) break;
        if (out.length === limit) return out;
        // (A write longer than a whole batch is read whole on its own.)
        out.push(i === rows.length && full ? this.readStoredWrite(rows[start].resourceVersion) : this.withPatch(rows.slice(start, i), rows[i - 1].patch));
        after = out[out.length - 1].resourceVersion;
        start = i;
      }
      if (!full) return out;
    }
  }

}
