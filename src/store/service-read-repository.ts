// GET, LIST and the log's positions (time and resourceVersion bounds), written once over either
// engine's SQL reader. Each engine brings only what it does its own way: how a snapshot is held
// (ReadSnapshotScope) and, through its reader, whether a read costs a round trip: where it does not
// (SQLite), a time is found by probing the log row by row; where it does (PostgreSQL), by one
// recursive statement that probes on the server.
import type { ListPageRequest, ServiceReads, ServiceReadStore, ServiceRow } from './ports/service-read-store';
import type { ImmediateSqlReader, SqlReader } from './sql/sql-reader';
import { SqlParams } from './sql/sql-reader';
import { decodeStoredText, type StoredText } from './stored-text-codec';

/** How an engine runs reads that must agree with each other in one snapshot. */
export interface ReadSnapshotScope {
  /** Runs `reads` in one snapshot; every read of the engine's reader inside it sees that snapshot. */
  inSnapshot<T>(reads: () => Promise<T>): Promise<T>;
}

const LIVE = 'SELECT object FROM services WHERE namespace = $1 AND name = $2';

const HEAD = 'SELECT coalesce(max(position), 0) AS head FROM events';

const HORIZON = 'SELECT coalesce(max(horizon_resource_version), 0) AS horizon FROM compactions';

/**
 * The incarnations alive at $1 (created at or before it, not deleted by then), in name order.
 * There are as many lifetimes as Services ever created, whatever the number of their writes.
 */
const liveAsOf = (db: SqlReader) => `service_lifetimes l${db.dialect.indexedBy('service_lifetimes_name')}
  WHERE l.created_resource_version <= $1 AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > $1)`;

/** The revision of lifetime `l` current at $1: its newest at or before it (a primary-key seek). */
const REVISION_AS_OF = `(SELECT r.object FROM service_revisions r
  WHERE r.uid = l.uid AND r.resource_version <= $1 ORDER BY r.resource_version DESC LIMIT 1)`;

/**
 * The first position of the first write whose resourceVersion is >= $1: a write's events are the
 * consecutive positions ending at its resourceVersion, so when position $1 - 1 belongs to a
 * write ending at or after $1, that write starts after the last earlier position of another write
 * (a walk back along the primary key, as long as that write).
 */
const WRITE_START_AT_OR_AFTER = `SELECT CASE
  WHEN coalesce((SELECT resource_version FROM events WHERE position = $1 - 1), 0) < $1 THEN $1
  ELSE coalesce(
    (SELECT e.position + 1 FROM events e
      WHERE e.position < $1 AND e.resource_version <> (SELECT resource_version FROM events WHERE position = $1 - 1)
      ORDER BY e.position DESC LIMIT 1),
    (SELECT min(position) FROM events))
END AS start`;

const OLDEST = 'SELECT coalesce(min(position), 1) AS oldest FROM events';
const RECORDED_AT = 'SELECT recorded_at AS "recordedAt" FROM events WHERE position = $1';

/**
 * The greatest position recorded at or before $1 (`<=`) or before it (`<`), 0 when none, in one
 * round trip: the binary search below as a recursive query (PostgreSQL's LATERAL), its ~log2(n)
 * primary-key probes run by the server.
 */
const lastPositionRecordedQuery = (compare: '<=' | '<') => `
WITH RECURSIVE search(low, high) AS (
  SELECT b.low, b.high FROM (SELECT min(position) AS low, max(position) AS high FROM events) b
    WHERE b.low IS NOT NULL AND (SELECT recorded_at FROM events WHERE position = b.low) ${compare} $1
  UNION ALL
  SELECT CASE WHEN p.ok THEN p.middle ELSE s.low END, CASE WHEN p.ok THEN s.high ELSE p.middle - 1 END
    FROM search s
    CROSS JOIN LATERAL (SELECT s.low + (s.high - s.low + 1) / 2 AS middle) m
    CROSS JOIN LATERAL (SELECT m.middle, coalesce((SELECT recorded_at FROM events WHERE position = m.middle) ${compare} $1, false) AS ok) p
    WHERE s.low < s.high
)
SELECT coalesce((SELECT low FROM search WHERE low >= high), 0) AS position`;

const LAST_POSITION_AT_OR_BEFORE = lastPositionRecordedQuery('<=');
const LAST_POSITION_BEFORE = lastPositionRecordedQuery('<');

/**
 * The greatest position whose recorded_at is < time (or <= time when `inclusive`), 0 when none,
 * probing the log row by row. The log has no index by time (it would cost every write a page of
 * WAL) and needs none: recorded_at never decreases along the log (the write path clamps a clock
 * that steps back) and positions are contiguous from the oldest the log holds to its head, so
 * this is a binary search of the primary key: ~log2(n) row reads. Times compare as the log
 * records them (UTC ISO 8601 with milliseconds: text order is time order).
 */
export function lastPositionRecorded(db: ImmediateSqlReader, time: string, inclusive: boolean): number {
  const before = (position: number) => {
    const at = db.one<{ recordedAt: string }>(RECORDED_AT, [position])?.recordedAt;
    return at !== undefined && (inclusive ? at <= time : at < time);
  };
  let low = db.one<{ oldest: number }>(OLDEST)!.oldest;
  let high = db.one<{ head: number }>(HEAD)!.head;
  if (high === 0 || !before(low)) return 0;
  // Invariant: position `low` qualifies; positions above `high` do not.
  while (low < high) {
    const middle = low + Math.ceil((high - low) / 2);
    if (before(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

export class ServiceReadRepository implements ServiceReadStore {
  private readonly liveAsOf: string;

  constructor(
    private readonly db: SqlReader,
    private readonly snapshots: ReadSnapshotScope,
  ) {
    this.liveAsOf = liveAsOf(db);
  }

  async ready(): Promise<boolean> {
    try {
      return (await this.db.one<{ one: number }>('SELECT 1 AS one'))?.one === 1;
    } catch {
      return false;
    }
  }

  inSnapshot<T>(reads: (snapshot: ServiceReads) => Promise<T>): Promise<T> {
    return this.snapshots.inSnapshot(() => reads(this));
  }

  async head(): Promise<number> {
    return (await this.db.one<{ head: number }>(HEAD))!.head;
  }

  async horizon(): Promise<number> {
    return (await this.db.one<{ horizon: number }>(HORIZON))!.horizon;
  }

  async resourceVersionAt(time: string): Promise<number> {
    return this.lastPositionRecorded(time, true);
  }

  async firstPositionAtOrAfter(time: string): Promise<number> {
    return (await this.lastPositionRecorded(time, false)) + 1;
  }

  async writeStartAtOrAfter(resourceVersion: number): Promise<number> {
    if (resourceVersion <= 1) return 1;
    return (await this.db.one<{ start: number }>(WRITE_START_AT_OR_AFTER, [resourceVersion]))!.start;
  }

  async liveJson(namespace: string, name: string): Promise<string | undefined> {
    const immediate = this.db.immediate;
    // SQLite's GET: a plucked value bound by position, as cheap as a statement of its own.
    if (immediate) return immediate.value<string>(LIVE, [namespace, name]);
    return (await this.db.one<{ object: string }>(LIVE, [namespace, name]))?.object;
  }

  async jsonAsOf(namespace: string, name: string, resourceVersion: number): Promise<string | undefined> {
    const sql = `SELECT ${REVISION_AS_OF} AS object FROM ${this.liveAsOf} AND l.namespace = $2 AND l.name = $3`;
    const object = (await this.db.one<{ object: StoredText | null }>(sql, [resourceVersion, namespace, name]))?.object;
    return object === undefined || object === null ? undefined : decodeStoredText(object);
  }

  async listPage(request: ListPageRequest): Promise<ServiceRow[]> {
    const live = request.asOf === undefined;
    const params = live ? new SqlParams() : new SqlParams(request.asOf);
    const column = (name: string) => (live ? name : `l.${name}`);
    const where: string[] = [];
    const { namespace, after } = request;
    if (namespace !== undefined) {
      // A namespace's page is one range of the (namespace, name) primary key or lifetimes index:
      // `namespace = ? AND name > ?`. (With a row comparison beside the equality, SQLite seeks
      // only to the namespace and reads every earlier name of it again.)
      if (after && after.namespace > namespace) return [];
      where.push(`${column('namespace')} = ${params.param(namespace)}`);
      if (after && after.namespace === namespace) where.push(`${column('name')} > ${params.param(after.name)}`);
    } else if (after) {
      // Across namespaces a row comparison is that one range.
      where.push(`(${column('namespace')}, ${column('name')}) > (${params.param(after.namespace)}, ${params.param(after.name)})`);
    }
    // A namespace's live page does not read its namespace back from every row (a string each).
    const sql = live
      ? `SELECT ${namespace === undefined ? 'namespace, ' : ''}name, object AS json FROM services${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`
      : `SELECT l.namespace AS namespace, l.name AS name, ${REVISION_AS_OF} AS json FROM ${this.liveAsOf}${where.map((w) => ` AND ${w}`).join('')}`;
    const rows = await this.db.all<ServiceRow>(`${sql} ORDER BY ${column('namespace')}, ${column('name')} LIMIT ${params.param(request.limit)}`, params.values);
    // A past revision is a stored text (a live row is the text GET serves).
    if (!live) for (const row of rows) row.json = decodeStoredText(row.json);
    else if (namespace !== undefined) for (const row of rows) row.namespace = namespace;
    return rows;
  }

  /** The greatest position recorded at or before `time` (or before it), 0 when none. */
  private async lastPositionRecorded(time: string, inclusive: boolean): Promise<number> {
    if (this.db.immediate) return lastPositionRecorded(this.db.immediate, time, inclusive);
    return (await this.db.one<{ position: number }>(inclusive ? LAST_POSITION_AT_OR_BEFORE : LAST_POSITION_BEFORE, [time]))!.position;
  }
}
