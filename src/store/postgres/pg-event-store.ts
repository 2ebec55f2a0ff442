// The log on PostgreSQL: append with an expected stream version, read a stream, read everything
// after a position. Every method that writes runs on the caller's transaction (a PoolClient
// between BEGIN and COMMIT).
//
// Why appends are serialised by a transaction-level advisory lock, not numbered by a sequence:
// a watcher reads the log by position ("everything after the last position I saw"), so a
// position must never become visible after a greater one did. Sequence values are handed out
// when a transaction asks, not when it commits: two writers draw 7 and 8, 8 commits first, a
// reader sees 8 and moves past 7 for ever; a rolled-back writer leaves a hole as well. Under
// `pg_advisory_xact_lock` one append transaction at a time reads the head, appends head + 1... and
// holds the lock until its COMMIT, which makes its rows visible before the lock is released (the
// commit is recorded and published before a transaction's locks go). So positions are given in
// commit order, without holes, across every process on the database (kine numbers its rows the
// same way in spirit: one writer at a time decides the next revision).
//
// The write must run in READ COMMITTED (PostgreSQL's default): every statement after the lock
// sees every append committed before it. Under REPEATABLE READ the snapshot would be the one
// taken when the transaction's first statement began, possibly before the previous holder's commit.
import { DatabaseError } from 'pg';
import type { ServiceEvent } from '../../domain/service.events';
import { StreamVersionConflictError } from '../ports/stream-version-conflict-error';
import type { AppendRequest } from '../ports/append-request';
import type { RecordedEvent } from '../ports/recorded-event';
import { numberedEvents } from '../ports/recorded-event';
import type { Queryable } from './postgres-database';

/** Key of the transaction advisory lock every append takes (a constant of svctrail's own). */
export const APPEND_LOCK = '8319395769340735588';

/** The UNIQUE (stream_id, stream_version) index refused a row (SQLSTATE 23505 unique_violation). */
export function isStreamVersionCollision(error: unknown): boolean {
  return error instanceof DatabaseError && error.code === '23505' && error.constraint === 'events_stream_version_unique';
}

/** The log's newest position and when it was recorded (none when the log is empty). */
export interface LogTail {
  head: number;
  recordedAt?: string;
}

/** Every column of an event row, in the order toRecorded reads them. */
export const EVENT_COLUMNS = `position, resource_version, stream_id, stream_version, namespace, name, type, data,
  recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource`;
const COLUMN_COUNT = 16;

export interface EventRow {
  position: number;
  resource_version: number;
  stream_id: string;
  stream_version: number;
  namespace: string;
  name: string;
  type: string;
  data: string;
  recorded_at: string;
  actor_user: string;
  actor_groups: string;
  user_agent: string;
  field_manager: string;
  request_id: string;
  verb: string;
  subresource: string;
}

/**
 * The time to record a write at: the clock's, but never before the newest write's (svctrail_append
 * clamps it again under the append lock), so recorded_at grows with position even when a replica's clock is behind
 * another's or steps back. Time → resourceVersion lookups rely on it.
 */
export function recordingTime(clockNow: Date, newest: string | undefined): Date {
  if (newest === undefined) return clockNow;
  const newestMs = Date.parse(newest);
  return clockNow.getTime() < newestMs ? new Date(newestMs) : clockNow;
}

export class PgEventStore {
  /**
   * Takes the append lock for the rest of the caller's transaction (waiting for whichever
   * transaction holds it to end). Taking it again in the same transaction is harmless.
   *
   * Always a statement of its own: a statement reads from the snapshot taken when it starts,
   * before the lock is granted, so a read in the same statement could miss the commit of the
   * transaction it waited for.
   */
  async lockAppends(client: Queryable): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
  }

  /** The newest position and its time. Under the append lock, nobody else can move it. */
  async tail(client: Queryable): Promise<LogTail> {
    const { rows } = await client.query<{ position: number; recorded_at: string }>('SELECT position, recorded_at FROM events ORDER BY position DESC LIMIT 1');
    return rows.length ? { head: rows[0].position, recordedAt: rows[0].recorded_at } : { head: 0 };
  }

  /**
   * Appends one write inside the caller's transaction. All its events share the resourceVersion
   * of the last one. Throws StreamVersionConflictError when the stream moved on (the UNIQUE
   * index is the last guard; its violation aborts the transaction, which the caller rolls back).
   * `lockHeld`: the caller's transaction took the append lock already (a round trip saved).
   */
  async append(client: Queryable, request: AppendRequest, options: { lockHeld?: boolean } = {}): Promise<RecordedEvent[]> {
    if (!request.streamId) throw new Error(`refusing to append events of ${request.namespace}/${request.name} without a stream id`);
    if (request.events.length === 0) return [];
    if (!options.lockHeld) await this.lockAppends(client);
    const { rows } = await client.query<{ stream_version: number; head: number }>(
      `SELECT (SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = $1) AS stream_version,
              (SELECT coalesce(max(position), 0) FROM events) AS head`,
      [request.streamId],
    );
    if (rows[0].stream_version !== request.expectedVersion) throw new StreamVersionConflictError(request.name);
    const m = request.metadata;
    const recorded = numberedEvents(request, rows[0].head + 1);
    const values: unknown[] = [];
    const tuples = recorded.map((r, i) => {
      values.push(
        r.position,
        r.resourceVersion,
        r.streamId,
        r.streamVersion,
        r.namespace,
        r.name,
        r.event.type,
        JSON.stringify(r.event.data),
        m.recordedAt,
        m.user,
        JSON.stringify(m.groups),
        m.userAgent,
        m.fieldManager,
        m.requestId,
        m.verb,
        m.subresource,
      );
      return `(${Array.from({ length: COLUMN_COUNT }, (_, c) => `$${i * COLUMN_COUNT + c + 1}`).join(', ')})`;
    });
    try {
      await client.query(`INSERT INTO events (${EVENT_COLUMNS}) VALUES ${tuples.join(', ')}`, values);
    } catch (error) {
      if (isStreamVersionCollision(error)) throw new StreamVersionConflictError(request.name);
      throw error;
    }
    return recorded;
  }

  async readStream(client: Queryable, streamId: string): Promise<RecordedEvent[]> {
    const { rows } = await client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`, [streamId]);
    return rows.map(toRecorded);
  }

  /** Events with position > afterPosition, oldest first, at most `limit`. */
  async readAll(client: Queryable, afterPosition: number, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2`, [afterPosition, limit]);
    return rows.map(toRecorded);
  }
}

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    position: row.position,
    resourceVersion: row.resource_version,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    namespace: row.namespace,
    name: row.name,
    event: { type: row.type, data: JSON.parse(row.data) } as ServiceEvent,
    metadata: {
      user: row.actor_user,
      groups: JSON.parse(row.actor_groups) as string[],
      userAgent: row.user_agent,
      fieldManager: row.field_manager,
      requestId: row.request_id,
      verb: row.verb,
      subresource: row.subresource,
      recordedAt: row.recorded_at,
    },
  };
}
