// ActivitySummary on PostgreSQL: the same counts as ActivitySummaryRepository, counted by the
// database over index ranges. Buckets arrive as two arrays of bounds, unnested into rows, each
// bucket one range of the (namespace, name, position) index.
import type { ActivitySummary, BucketCounts, RankingRange, TransitionRank } from '../../activity-summary-repository';
import type { PgReadScope } from './pg-read-scope';
import { PgSqlParams } from './pg-sql-params';

/** Bucket i (0-based) covers positions [lo, hi). */
const BUCKETS = `b(i, lo, hi) AS (SELECT n - 1, lo, hi FROM unnest($3::bigint[], $4::bigint[]) WITH ORDINALITY AS u(lo, hi, n))`;

const EVENT_COUNTS = `WITH ${BUCKETS}
SELECT b.i AS i, count(DISTINCT e.resource_version) AS changes,
  count(*) FILTER (WHERE e.type = 'ServiceCreated') AS created, count(*) FILTER (WHERE e.type = 'ServiceDeleted') AS deleted,
  count(*) FILTER (WHERE e.type = 'ServiceSpecChanged') AS "specChanges", count(*) FILTER (WHERE e.type = 'ServiceMetadataChanged') AS "metadataChanges",
  count(*) FILTER (WHERE e.type = 'LoadBalancerIngressChanged') AS "ingressChanges"
FROM b JOIN events e ON e.namespace = $1 AND e.name = $2 AND e.position >= b.lo AND e.position < b.hi
GROUP BY b.i`;

const TRANSITION_COUNTS = `WITH ${BUCKETS}
SELECT b.i AS i, count(*) AS n
FROM b JOIN condition_transitions t ON t.namespace = $1 AND t.name = $2 AND t.resource_version >= b.lo AND t.resource_version < b.hi
GROUP BY b.i`;

const INGRESS_SET_COUNTS = `WITH ${BUCKETS}
SELECT b.i AS i, count(*) AS n
FROM b JOIN ingress_intervals x ON x.namespace = $1 AND x.name = $2 AND x.from_resource_version >= b.lo AND x.from_resource_version < b.hi
GROUP BY b.i`;

export class PgActivitySummary implements ActivitySummary {
  constructor(private readonly scope: PgReadScope) {}

  async buckets(service: { namespace: string; name: string }, bounds: [number, number][]): Promise<BucketCounts[]> {
    const params = [service.namespace, service.name, bounds.map((b) => b[0]), bounds.map((b) => b[1])];
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
    const events = await this.scope.db.query<Omit<BucketCounts, 'index' | 'conditionTransitions' | 'ingressSets'> & { i: number }>(EVENT_COUNTS, params);
    for (const { i, ...counts } of events.rows) Object.assign(out[i], counts);
    for (const row of (await this.scope.db.query<{ i: number; n: number }>(TRANSITION_COUNTS, params)).rows) out[row.i].conditionTransitions = row.n;
    for (const row of (await this.scope.db.query<{ i: number; n: number }>(INGRESS_SET_COUNTS, params)).rows) out[row.i].ingressSets = row.n;
    return out;
  }

  async ranking(range: RankingRange, limit: number): Promise<TransitionRank[]> {
    const p = new PgSqlParams();
    const where = [`resource_version >= ${p.param(range.fromRv)}`, `resource_version <= ${p.param(range.toRv)}`];
    if (range.namespace !== undefined) where.push(`namespace = ${p.param(range.namespace)}`);
    // Keyset over (transitions desc, namespace, name, uid) so pages never skip or repeat.
    let having = '';
    if (range.after) {
      const count = p.param(range.after.count);
      having = `HAVING count(*) < ${count} OR (count(*) = ${count} AND (namespace, name, uid) > (${p.param(range.after.namespace)}, ${p.param(range.after.name)}, ${p.param(range.after.uid)}))`;
    }
    // A uid is one incarnation: its namespace and name never change.
    const { rows } = await this.scope.db.query<TransitionRank>(
      `SELECT namespace, name, uid, count(*) AS transitions, max(recorded_at) AS "lastAt" FROM condition_transitions
       WHERE ${where.join(' AND ')} GROUP BY uid, namespace, name ${having} ORDER BY transitions DESC, namespace, name, uid LIMIT ${p.param(limit)}`,
      p.values,
    );
    return rows;
  }
}
