// The PostgreSQL engine's ServiceReadStore: the same reads as SqliteServiceReadStore, in
// PostgreSQL. A read outside a snapshot runs on any pooled connection and sees every write
// committed before it began (read-your-writes across replicas: an acknowledged write is
// committed); a snapshot is one REPEATABLE READ READ ONLY transaction on one connection.
import type { Pool } from 'pg';
import { checkout } from './postgres-database';
import type { Queryable } from './postgres-database';
import type { ListPageRequest, ServiceReads, ServiceReadStore, ServiceRow } from '../ports/service-read-store';

/** The incarnations alive at $asOf (created at or before it, not deleted by then). */
const LIVE_AS_OF = (asOf: string) =>
  `service_lifetimes l WHERE l.created_resource_version <= ${asOf} AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > ${asOf})`;

/** The revision of lifetime `l` current at $asOf: its newest at or before it (a primary-key seek). */
const REVISION_AS_OF = (asOf: string) =>
  `(SELECT r.object FROM service_revisions r WHERE r.uid = l.uid AND r.resource_version <= ${asOf} ORDER BY r.resource_version DESC LIMIT 1)`;

/**
 * The greatest position recorded at or before $1 (`<=`) or before it (`<`), 0 when none: a binary search over positions
 * (recorded_at grows with position; the log has no index by time), run as one recursive query so
 * that its ~log2(n) primary-key probes cost one round trip. Positions are contiguous from the
 * oldest to the head.
 */
const lastPositionRecorded = (compare: '<=' | '<') => `
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

const LAST_POSITION_AT_OR_BEFORE = lastPositionRecorded('<=');
const LAST_POSITION_BEFORE = lastPositionRecorded('<');

/**
 * The first position of the first write whose resourceVersion is >= $1: a write's events are the
 * consecutive positions ending at its resourceVersion, so when position $1 - 1 belongs to a
 * write ending at or after $1, that write starts after the last earlier position of another write.
 */
const WRITE_START_AT_OR_AFTER = `
SELECT CASE
  WHEN p.rv IS NULL OR p.rv < $1 THEN $1
  ELSE coalesce(
    (SELECT e.position + 1 FROM events e WHERE e.position < $1 AND e.resource_version <> p.rv ORDER BY e.position DESC LIMIT 1),
    (SELECT min(position) FROM events))
END AS start
FROM (SELECT (SELECT resource_version FROM events WHERE position = $1 - 1) AS rv) p`;

/** The reads, on whichever connection or transaction they are given. */
class PgServiceReads implements ServiceReads {
  constructor(protected readonly db: Queryable) {}

  async head(): Promise<number> {
    const { rows } = await this.db.query<{ head: number }>('SELECT coalesce(max(position), 0) AS head FROM events');
    return rows[0].head;
  }

  async resourceVersionAt(time: string): Promise<number> {
    const { rows } = await this.db.query<{ position: number }>(LAST_POSITION_AT_OR_BEFORE, [time]);
    return rows[0].position;
  }

  async firstPositionAtOrAfter(time: string): Promise<number> {
    const { rows } = await this.db.query<{ position: number }>(LAST_POSITION_BEFORE, [time]);
    return rows[0].position + 1;
  }

  async writeStartAtOrAfter(resourceVersion: number): Promise<number> {
    if (resourceVersion <= 1) return 1;
    const { rows } = await this.db.query<{ start: number }>(WRITE_START_AT_OR_AFTER, [resourceVersion]);
    return rows[0].start;
  }

  async liveJson(namespace: string, name: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ object: string }>('SELECT object FROM services WHERE namespace = $1 AND name = $2', [namespace, name]);
    return rows[0]?.object;
  }

  async jsonAsOf(namespace: string, name: string, resourceVersion: number): Promise<string | undefined> {
    const { rows } = await this.db.query<{ object: string | null }>(
      `SELECT ${REVISION_AS_OF('$1')} AS object FROM ${LIVE_AS_OF('$1')} AND l.namespace = $2 AND l.name = $3`,
      [resourceVersion, namespace, name],
    );
    return rows[0]?.object ?? undefined;
  }

  async listPage(request: ListPageRequest): Promise<ServiceRow[]> {
    const live = request.asOf === undefined;
    const column = (name: string) => (live ? name : `l.${name}`);
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where: string[] = [];
    let from: string;
    let json: string;
    if (live) {
      from = 'services';
      json = 'object';
    } else {
      const asOf = param(request.asOf);
      from = LIVE_AS_OF(asOf);
      json = REVISION_AS_OF(asOf);
    }
    if (request.namespace !== undefined) where.push(`${column('namespace')} = ${param(request.namespace)}`);
    if (request.after) {
      // A row comparison: one range of the (namespace, name) primary key or lifetimes index.
      where.push(`(${column('namespace')}, ${column('name')}) > (${param(request.after.namespace)}, ${param(request.after.name)})`);
    }
    const conditions = where.length ? `${live ? ' WHERE' : ' AND'} ${where.join(' AND ')}` : '';
    const sql = `SELECT ${column('namespace')} AS namespace, ${column('name')} AS name, ${json} AS json FROM ${from}${conditions}
      ORDER BY ${column('namespace')}, ${column('name')} LIMIT ${param(request.limit)}`;
    const { rows } = await this.db.query<ServiceRow>(sql, params);
    return rows;
  }
}

export class PgServiceReadStore extends PgServiceReads implements ServiceReadStore {
  constructor(private readonly pool: Pool) {
    super(pool);
  }

  async ready(): Promise<boolean> {
    try {
      const { rows } = await this.pool.query<{ one: number }>('SELECT 1 AS one');
      return rows[0]?.one === 1;
    } catch {
      return false;
    }
  }

  async inSnapshot<T>(reads: (snapshot: ServiceReads) => Promise<T>): Promise<T> {
    const client = await checkout(this.pool);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        return await reads(new PgServiceReads(client));
      } finally {
        // Read only: ending it either way changes nothing; COMMIT also ends an aborted one.
        await client.query('COMMIT').catch((error: Error) => (broken = error));
      }
    } catch (error) {
      broken ??= error instanceof Error && !('code' in error) ? error : undefined;
      throw error;
    } finally {
      client.releaseChecked(broken);
    }
  }
}
