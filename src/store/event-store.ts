// The narrow port to the log: append with an expected stream version, read a stream, read
// everything after a position. Must be called inside the write transaction for append.
import { StreamVersionConflictError } from './ports/stream-version-conflict-error';
import type { AppendRequest } from './ports/append-request';
import type { DatabaseHandle } from './database';
import type { LogEvent, LoggedEvent, RecordedEvent } from './ports/recorded-event';
import { numberedEvents } from './ports/recorded-event';
import { recordingTime } from './recording-time';
import { eventDataText, packEventData } from './packed-event-data';
import { SqliteRepeatedTexts } from './sqlite-repeated-texts';
import { resolvedEventColumns } from './sql/event-columns';
import type { EventRow, StoredEventRow } from './ports/event-row';

/** The UNIQUE (stream_id, stream_version) index refused a row: by SQLite's extended code, not its message. */
export function isStreamVersionCollision(error: unknown): boolean {
  // position is the INTEGER PRIMARY KEY (SQLITE_CONSTRAINT_PRIMARYKEY); the only UNIQUE index on
  // events is this one. The code is read off the object: the native addon's SqliteError class
  // need not be the one this module sees (instanceof fails across module registries).
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class SqliteEventStore {
  private readonly insert;
  private readonly maxPosition;
  private readonly streamVersionOf;
  private readonly lastRecordedAt;
  private readonly texts: SqliteRepeatedTexts;
  private readonly streamEvents;
  private readonly eventsAfter;

  constructor(handle: DatabaseHandle) {
    this.insert = handle.sqlite.prepare(
      `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
         recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource, packed_data,
         actor_user_id, actor_groups_id, user_agent_id, field_manager_id)
       VALUES (@position, @resourceVersion, @streamId, @streamVersion, @namespace, @name, @type, '',
         @recordedAt, '', '', '', '', @requestId, @verb, @subresource, @packedData, @actorUserId, @actorGroupsId, @userAgentId, @fieldManagerId)`,
    );
    this.texts = new SqliteRepeatedTexts(handle.sqlite);
    this.streamEvents = handle.sqlite.prepare(`SELECT ${resolvedEventColumns()} FROM events WHERE stream_id = ? ORDER BY stream_version`);
    this.eventsAfter = handle.sqlite.prepare(`SELECT ${resolvedEventColumns()} FROM events WHERE position > ? ORDER BY position LIMIT ?`);
    this.maxPosition = handle.sqlite.prepare('SELECT coalesce(max(position), 0) AS p FROM events').pluck();
    this.streamVersionOf = handle.sqlite.prepare('SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = ?').pluck();
    this.lastRecordedAt = handle.sqlite.prepare('SELECT recorded_at FROM events WHERE position = (SELECT max(position) FROM events)').pluck();
  }

  /** The time to record a write at (recording-time.ts), the newest read inside the write transaction. */
  recordingTime(clockNow: Date): Date {
    return recordingTime(clockNow, this.lastRecordedAt.get() as string | undefined);
  }

  /** The newest position in the log (the current global resourceVersion). */
  head(): number {
    return this.maxPosition.get() as number;
  }

  /**
   * Appends one write. All its events share the resourceVersion of the last one. Throws
   * StreamVersionConflictError when the stream moved on (the UNIQUE index is the last guard).
   */
  append<E extends LogEvent>(request: AppendRequest<E>): RecordedEvent<E>[] {
    // A stream is an object's uid; an event without one could never be read back as its object's.
    if (!request.streamId) throw new Error(`refusing to append events of ${request.namespace}/${request.name} without a stream id`);
    const actual = this.streamVersionOf.get(request.streamId) as number;
    if (actual !== request.expectedVersion) throw new StreamVersionConflictError(request.name);
    const recorded = numberedEvents(request, this.head() + 1);
    const m = request.metadata;
    // The write's repeated texts, stored once (repeated_texts) and referred to by id.
    const actorUserId = this.texts.idOf(m.user);
    const actorGroupsId = this.texts.idOf(JSON.stringify(m.groups));
    const userAgentId = this.texts.idOf(m.userAgent);
    const fieldManagerId = this.texts.idOf(m.fieldManager);
    return recorded.map((r) => {
      try {
        this.insert.run({
          position: r.position,
          resourceVersion: r.resourceVersion,
          streamId: r.streamId,
          streamVersion: r.streamVersion,
          namespace: r.namespace,
          name: r.name,
          type: r.event.type,
          packedData: packEventData(JSON.stringify(r.event.data)),
          recordedAt: m.recordedAt,
          actorUserId,
          actorGroupsId,
          userAgentId,
          fieldManagerId,
          requestId: m.requestId,
          verb: m.verb,
          subresource: m.subresource,
        });
      } catch (error) {
        if (isStreamVersionCollision(error)) throw new StreamVersionConflictError(request.name);
        throw error;
      }
      return r;
    });
  }

  readStream(streamId: string): LoggedEvent[] {
    return (this.streamEvents.all(streamId) as StoredEventRow[]).map(storedToRecorded);
  }

  /** Events with position > afterPosition, oldest first, at most `limit`. */
  readAll(afterPosition: number, limit: number): LoggedEvent[] {
    return (this.eventsAfter.all(afterPosition, limit) as StoredEventRow[]).map(storedToRecorded);
  }
}

/** A log row as it means, of either kind of stream. */
export function toRecorded(row: EventRow): LoggedEvent {
  return loggedEvent(row, row.data);
}

/** A log row as it is stored (its data packed or not), of either kind of stream. */
export function storedToRecorded(row: StoredEventRow): LoggedEvent {
  return loggedEvent(row, eventDataText(row));
}

function loggedEvent(row: Omit<EventRow, 'data'>, data: string): LoggedEvent {
  return {
    position: row.position,
    resourceVersion: row.resourceVersion,
    streamId: row.streamId,
    streamVersion: row.streamVersion,
    namespace: row.namespace,
    name: row.name,
    event: { type: row.type, data: JSON.parse(data) } as LogEvent,
    metadata: {
      user: row.actorUser,
      groups: JSON.parse(row.actorGroups) as string[],
      userAgent: row.userAgent,
      fieldManager: row.fieldManager,
      requestId: row.requestId,
      verb: row.verb,
      subresource: row.subresource,
      recordedAt: row.recordedAt,
    },
  };
}
