// ChangeHistory on PostgreSQL: the same answers as ChangeHistoryRepository (the log read as
// accepted writes), each range one statement on the index of its narrowest filter (the planner
// picks it: the indexes are SQLite's, each ending in position).
import type { Service } from '../../../domain/service.types';
import { jsonPatchText } from '../../../history/json-patch-diff';
import { filtersWholeWrites } from '../../change-history-repository';
import type { ChangeHistory, ChangeRange, RecordedWrite, StoredWrite } from '../../change-history-repository';
import { toRecorded } from '../../event-store';
import type { events } from '../../schema';
import type { PgReadScope } from './pg-read-scope';
import { PgSqlParams } from './pg-sql-params';

type EventRow = typeof events.$inferSelect;

/** The events columns as ChangeHistoryRepository reads them (quoted: PostgreSQL folds bare aliases to lower case). */
export const EVENT_COLUMNS = (alias = '') => {
  const a = alias ? `${alias}.` : '';
  return `${a}position, ${a}resource_version AS "resourceVersion", ${a}stream_id AS "streamId", ${a}stream_version AS "streamVersion", ${a}namespace,
  ${a}name, ${a}type, ${a}data, ${a}recorded_at AS "recordedAt", ${a}actor_user AS "actorUser", ${a}actor_groups AS "actorGroups",
  ${a}user_agent AS "userAgent", ${a}field_manager AS "fieldManager", ${a}request_id AS "requestId", ${a}verb, ${a}subresource`;
};

/**
 * The events of the write at $1: the positions after the last earlier one of another write, up to
 * $1 (a write's events are consecutive positions ending at its resourceVersion). The bound is a
 * backwards walk of the primary key that stops at the write's first event.
 */
export const EVENTS_OF_WRITE = `SELECT ${EVENT_COLUMNS()} FROM events
  WHERE position <= $1 AND position > coalesce((SELECT max(position) FROM events WHERE position <= $1 AND resource_version <> $1), 0)
  ORDER BY position`;

const REVISION_AT = 'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version = $2';
const REVISION_BEFORE = 'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version < $2 ORDER BY resource_version DESC LIMIT 1';

/** Rows read per round while collecting distinct writes. */
const BATCH = 500;
/** Events read per round by the feed. */
const FEED_EVENTS = 400;

export class PgChangeHistory implements ChangeHistory {
  constructor(private readonly scope: PgReadScope) {}

  /** The SQL of one round: $1 fromPosition, $2 toRv, $3 fromRv, $4 batch, then the filters. */
  static rangeSql(range: Omit<ChangeRange, 'fromRv' | 'toRv' | 'fromPosition'>, params: PgSqlParams, columns = 'position, resource_version AS rv'): string {
    const where = ['position >= $1', 'position <= $2', 'resource_version >= $3'];
    if (range.uid !== undefined) where.push(`stream_id = ${params.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`namespace = ${params.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`name = ${params.param(range.name)}`);
    if (range.actor !== undefined) where.push(`actor_user = ${params.param(range.actor)}`);
    if (range.eventType !== undefined) where.push(`type = ${params.param(range.eventType)}`);
    if (range.fieldManager !== undefined) where.push(`field_manager = ${params.param(range.fieldManager)}`);
    // A stream's events in stream_version order are its events in position order.
    const order = range.uid !== undefined ? 'stream_version' : 'position';
    return `SELECT ${columns} FROM events WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $4`;
  }

  async matchingWrites(range: ChangeRange, limit: number): Promise<number[]> {
    const params = new PgSqlParams();
    [0, 0, 0, 0].forEach((v) => params.param(v));
    const sql = PgChangeHistory.rangeSql(range, params);
    const out: number[] = [];
    let fromPosition = range.fromPosition;
    let batch = Math.min(BATCH, 2 * limit);
    for (;; batch = Math.min(BATCH, 2 * batch)) {
      const values = [fromPosition, range.toRv, range.fromRv, batch, ...params.values.slice(4)];
      const { rows } = await this.scope.db.query<{ position: number; rv: number }>(sql, values);
      for (const row of rows) {
        if (out[out.length - 1] === row.rv) continue;
        if (out.length === limit) return out;
        out.push(row.rv);
      }
      if (rows.length < batch) return out;
      fromPosition = rows[rows.length - 1].position + 1;
    }
  }

  async matchingStoredWrites(range: ChangeRange, limit: number): Promise<StoredWrite[]> {
    if (!filtersWholeWrites(range)) throw new Error('matchingStoredWrites needs filters that keep writes whole');
    const params = new PgSqlParams();
    [0, 0, 0, 0].forEach((v) => params.param(v));
    // Each write's stored patch, read on its last event (the one at the write's resourceVersion).
    const patch = `CASE WHEN position = resource_version THEN (SELECT r.patch FROM service_revisions r WHERE r.uid = events.stream_id AND r.resource_version = events.resource_version) END AS patch`;
    const sql = PgChangeHistory.rangeSql(range, params, `${EVENT_COLUMNS()}, ${patch}`);
    const out: StoredWrite[] = [];
    let fromPosition = range.fromPosition;
    let batch = Math.min(BATCH, 8 * (limit + 1));
    for (;;) {
      const values = [fromPosition, range.toRv, range.fromRv, batch, ...params.values.slice(4)];
      const { rows } = await this.scope.db.query<EventRow & { patch: string | null }>(sql, values);
      const full = rows.length === batch;
      let start = 0;
      for (let i = 1; i <= rows.length; i++) {
        if (i < rows.length && rows[i].resourceVersion === rows[start].resourceVersion) continue;
        // A full batch may have cut its last write short: it is read again, whole, by the next.
        if (i === rows.length && full) break;
        out.push(await this.withPatch(rows.slice(start, i), rows[i - 1].patch));
        if (out.length === limit) return out;
        start = i;
      }
      if (!full) return out;
      // (A write longer than a whole batch: read it with a larger one.)
      if (start === 0) batch *= 2;
      else fromPosition = rows[start].position;
    }
  }

  async write(resourceVersion: number): Promise<RecordedWrite> {
    const recorded = (await this.eventsOfWrite(resourceVersion)).map(toRecorded);
    const first = recorded[0];
    const parse = (json: string | undefined) => (json === undefined ? null : (JSON.parse(json) as Service));
    return {
      resourceVersion,
      uid: first.streamId,
      namespace: first.namespace,
      name: first.name,
      events: recorded,
      previous: first.streamVersion === 1 ? null : parse(await this.revision(REVISION_BEFORE, first.streamId, resourceVersion)),
      object: parse(await this.revision(REVISION_AT, first.streamId, resourceVersion)),
    };
  }

  async storedWrite(resourceVersion: number): Promise<StoredWrite> {
    return this.withPatch(await this.eventsOfWrite(resourceVersion));
  }

  async storedWritesAfter(resourceVersion: number, untilRv: number, limit: number): Promise<StoredWrite[]> {
    const out: StoredWrite[] = [];
    for (let after = resourceVersion; ; ) {
      // With each write's stored patch, read on its last event (the one at the write's resourceVersion).
      const { rows } = await this.scope.db.query<EventRow & { patch: string | null }>(
        `SELECT ${EVENT_COLUMNS('e')}, r.patch FROM events e
         LEFT JOIN service_revisions r ON e.position = e.resource_version AND r.uid = e.stream_id AND r.resource_version = e.resource_version
         WHERE e.position > $1 AND e.position <= $2 ORDER BY e.position LIMIT ${FEED_EVENTS}`,
        [after, untilRv],
      );
      const full = rows.length === FEED_EVENTS;
      let start = 0;
      for (let i = 1; i <= rows.length; i++) {
        if (i < rows.length && rows[i].resourceVersion === rows[start].resourceVersion) continue;
        // The batch may have cut its last write short: that one is read again by the next batch.
        if (i === rows.length && full && start > 0) break;
        if (out.length === limit) return out;
        out.push(
          i === rows.length && full ? await this.storedWrite(rows[start].resourceVersion) : await this.withPatch(rows.slice(start, i), rows[i - 1].patch),
        );
        after = out[out.length - 1].resourceVersion;
        start = i;
      }
      if (!full) return out;
    }
  }

  private async eventsOfWrite(resourceVersion: number): Promise<EventRow[]> {
    return (await this.scope.db.query<EventRow>(EVENTS_OF_WRITE, [resourceVersion])).rows;
  }

  private async revision(sql: string, uid: string, resourceVersion: number): Promise<string | undefined> {
    return (await this.scope.db.query<{ object: string }>(sql, [uid, resourceVersion])).rows[0]?.object;
  }

  /** `stored`: the write's stored patch when already read with its events (null: none stored). */
  private async withPatch(rows: EventRow[], stored?: string | null): Promise<StoredWrite> {
    const first = rows[0];
    const resourceVersion = first.resourceVersion;
    let patchJson = stored;
    if (patchJson === undefined) {
      const { rows: found } = await this.scope.db.query<{ patch: string }>('SELECT patch FROM service_revisions WHERE uid = $1 AND resource_version = $2', [
        first.streamId,
        resourceVersion,
      ]);
      patchJson = found[0]?.patch ?? null;
    }
    // A delete writes no revision: its patch is computed from the revisions.
    if (patchJson === null) {
      const previous = first.streamVersion === 1 ? null : ((await this.revision(REVISION_BEFORE, first.streamId, resourceVersion)) ?? null);
      patchJson = jsonPatchText(previous, (await this.revision(REVISION_AT, first.streamId, resourceVersion)) ?? null);
    }
    return { resourceVersion, uid: first.streamId, namespace: first.namespace, name: first.name, events: rows, patchJson };
  }
}
