// Reads the log as accepted writes (one item per resourceVersion) for the history API's change
// log: which writes match, their events and actor, and the objects before and after each. The
// range is driven by the index that matches the narrowest filter (INDEXED BY, so the plan does
// not depend on statistics); the other filters are checked on the rows of that range.
import type { Service } from '../domain/service.types';
import { jsonPatchText } from '../history/json-patch-diff';
import type { DatabaseHandle } from './database';
import { toRecorded } from './event-store';
import { LogPositions } from './log-positions';
import type { RecordedEvent } from './recorded-event';
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

export class ChangeHistoryRepository {
  private readonly eventsOfWrite;
  private readonly revisionAt;
  private readonly revisionBefore;
  private readonly storedPatch;
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
  }

  /** The SQL of one round (exported for the query-plan test). */
  static rangeSql(range: Omit<ChangeRange, 'fromRv' | 'toRv' | 'fromPosition'>): string {
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
    return `SELECT position, resource_version AS rv FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @batch`;
  }

  /** The resourceVersions of up to `limit` matching writes, oldest first. */
  matchingWrites(range: ChangeRange, limit: number): number[] {
    const statement = this.handle.statement(ChangeHistoryRepository.rangeSql(range));
    const out: number[] = [];
    let fromPosition = range.fromPosition;
    for (;;) {
      const rows = statement.all({ ...range, fromPosition, batch: BATCH }) as { position: number; rv: number }[];
      for (const row of rows) {
        if (out[out.length - 1] === row.rv) continue;
        if (out.length === limit) return out;
        out.push(row.rv);
      }
      if (rows.length < BATCH) return out;
      fromPosition = rows[rows.length - 1].position + 1;
    }
  }

  /** One write: its events, and the Service before and after it (null before a create, after a delete). */
  write(resourceVersion: number): RecordedWrite {
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
  storedWrite(resourceVersion: number): StoredWrite {
    const rows = this.eventsOfWrite.all(this.positions.writeStart(resourceVersion), resourceVersion) as EventRow[];
    const first = rows[0];
    let patchJson = this.storedPatch.get(first.streamId, resourceVersion) as string | null | undefined;
    if (patchJson === undefined || patchJson === null) {
      const previous = first.streamVersion === 1 ? null : ((this.revisionBefore.get(first.streamId, resourceVersion) as string | undefined) ?? null);
      patchJson = jsonPatchText(previous, (this.revisionAt.get(first.streamId, resourceVersion) as string | undefined) ?? null);
    }
    return { resourceVersion, uid: first.streamId, namespace: first.namespace, name: first.name, events: rows, patchJson };
  }

  /** Writes after a resourceVersion, oldest first, for the change feed. */
  storedWritesAfter(resourceVersion: number, untilRv: number, limit: number): StoredWrite[] {
    const rvs = this.matchingWrites({ fromRv: resourceVersion + 1, toRv: untilRv, fromPosition: resourceVersion + 1 }, limit);
    return rvs.map((rv) => this.storedWrite(rv));
  }
}
