// Aggregates for zoomed-out history views, counted by the database (either engine) over index ranges instead of
// reading every row into the process: per time bucket of one Service, how many writes, spec and
// metadata changes, condition transitions and ingress assignments; and which Services had the
// most condition transitions in a window. Buckets are position ranges (positions grow with
// recorded_at), so each count is a range scan of an index that ends in position/resourceVersion.
import { serviceRowsOnly } from './sql/log-stream-kinds';
import { type SqlDialect, SqlParams, type SqlReader } from './sql/sql-reader';
import type { ActivitySummary, BucketCounts, RankingRange, TransitionRank } from './ports/activity-summary';

/**
 * Bucket i (0-based) covers positions [lo, hi): the bound list as rows, from its own parameters
 * ($3 on): a JSON array on SQLite (json_each), two arrays on PostgreSQL (unnest).
 */
const BUCKETS: Record<SqlDialect['name'], { rows: string; values: (bounds: [number, number][]) => unknown[] }> = {
  sqlite: {
    rows: `b(i, lo, hi) AS (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each($3))`,
    values: (bounds) => [JSON.stringify(bounds)],
  },
  postgres: {
    rows: `b(i, lo, hi) AS (SELECT n - 1, lo, hi FROM unnest($3::bigint[], $4::bigint[]) WITH ORDINALITY AS u(lo, hi, n))`,
    values: (bounds) => [bounds.map((b) => b[0]), bounds.map((b) => b[1])],
  },
};

// The buckets drive the join (SQLite: CROSS JOIN keeps them the outer loop), so each one is a
// single index range seek (namespace, name, lo..hi). An Event may bear the Service's name: only
// the Service's own rows count.
const countsSql = (dialect: SqlDialect) => {
  const join = `FROM b ${dialect.drivingJoin}`;
  const withBuckets = `WITH ${BUCKETS[dialect.name].rows}`;
  return {
    events: `${withBuckets}
SELECT b.i AS i, count(DISTINCT e.resource_version) AS changes,
  count(*) FILTER (WHERE e.type = 'ServiceCreated') AS created, count(*) FILTER (WHERE e.type = 'ServiceDeleted') AS deleted,
  count(*) FILTER (WHERE e.type = 'ServiceSpecChanged') AS "specChanges", count(*) FILTER (WHERE e.type = 'ServiceMetadataChanged') AS "metadataChanges",
  count(*) FILTER (WHERE e.type = 'LoadBalancerIngressChanged') AS "ingressChanges"
${join} events e${dialect.indexedBy('events_name_position')} ON e.namespace = $1 AND e.name = $2 AND e.position >= b.lo AND e.position < b.hi AND ${serviceRowsOnly('e')}
GROUP BY b.i`,
    transitions: `${withBuckets}
SELECT b.i AS i, count(*) AS n
${join} condition_transitions t${dialect.indexedBy('condition_transitions_name_rv')} ON t.namespace = $1 AND t.name = $2 AND t.resource_version >= b.lo AND t.resource_version < b.hi
GROUP BY b.i`,
    ingressSets: `${withBuckets}
SELECT b.i AS i, count(*) AS n
${join} ingress_intervals x${dialect.indexedBy('ingress_intervals_name_from')} ON x.namespace = $1 AND x.name = $2 AND x.from_resource_version >= b.lo AND x.from_resource_version < b.hi
GROUP BY b.i`,
  };
};

export class ActivitySummaryRepository implements ActivitySummary {
  private readonly counts;

  constructor(private readonly db: SqlReader) {
    this.counts = countsSql(db.dialect);
  }

  /** Counts per bucket; `bounds[i]` = [first position, first position after] of bucket i. */
  async buckets(service: { namespace: string; name: string }, bounds: [number, number][]): Promise<BucketCounts[]> {
    const params = [service.namespace, service.name, ...BUCKETS[this.db.dialect.name].values(bounds)];
    const out: BucketCounts[] = bounds.map((_, index) => ({
      index,
      changes: 0,
      created: 0,
      deleted: 0,
      specChanges: 0,
      metadataChanges: 0,
      ingressChanges: 0,
      conditionTransitions: 0,
      ingressSets: 0,
    }));
    for (const { i, ...counts } of await this.db.all<Omit<BucketCounts, 'index' | 'conditionTransitions' | 'ingressSets'> & { i: number }>(this.counts.events, params)) {
      Object.assign(out[i], counts);
    }
    for (const row of await this.db.all<{ i: number; n: number }>(this.counts.transitions, params)) out[row.i].conditionTransitions = row.n;
    for (const row of await this.db.all<{ i: number; n: number }>(this.counts.ingressSets, params)) out[row.i].ingressSets = row.n;
    return out;
  }

  /** One ranking page: its SQL and values. */
  rankingQuery(range: RankingRange, limit: number): { sql: string; values: unknown[] } {
    const p = new SqlParams();
    const where = [`resource_version >= ${p.param(range.fromRv)}`, `resource_version <= ${p.param(range.toRv)}`];
    if (range.namespace !== undefined) where.push(`namespace = ${p.param(range.namespace)}`);
    const index = range.namespace !== undefined ? 'condition_transitions_namespace_rv' : 'condition_transitions_rv';
    // Keyset over (transitions desc, namespace, name, uid) so pages never skip or repeat.
    let having = '';
    if (range.after) {
      const count = p.param(range.after.count);
      having = `HAVING count(*) < ${count} OR (count(*) = ${count} AND (namespace, name, uid) > (${p.param(range.after.namespace)}, ${p.param(range.after.name)}, ${p.param(range.after.uid)}))`;
    }
    // A uid is one incarnation: its namespace and name never change.
    const sql = `SELECT namespace, name, uid, count(*) AS transitions, max(recorded_at) AS "lastAt" FROM condition_transitions${this.db.dialect.indexedBy(index)}
      WHERE ${where.join(' AND ')} GROUP BY uid, namespace, name ${having} ORDER BY transitions DESC, namespace, name, uid LIMIT ${p.param(limit)}`;
    return { sql, values: p.values };
  }

  /** Services by condition transitions in [fromRv, toRv], most first. */
  async ranking(range: RankingRange, limit: number): Promise<TransitionRank[]> {
    const { sql, values } = this.rankingQuery(range, limit);
    return this.db.all<TransitionRank>(sql, values);
  }
}
