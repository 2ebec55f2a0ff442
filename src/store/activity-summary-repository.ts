// Aggregates for zoomed-out history views, counted by SQLite over index ranges instead of
// reading every row into the process: per time bucket of one Service, how many writes, spec and
// metadata changes, condition transitions and ingress assignments; and which Services had the
// most condition transitions in a window. Buckets are position ranges (positions grow with
// recorded_at), so each count is a range scan of an index that ends in position/resourceVersion.
import type { DatabaseHandle } from './database';

export interface BucketCounts {
  index: number;
  changes: number;
  created: number;
  deleted: number;
  specChanges: number;
  metadataChanges: number;
  ingressChanges: number;
  conditionTransitions: number;
  ingressSets: number;
}

export interface TransitionRank {
  namespace: string;
  name: string;
  uid: string;
  transitions: number;
  lastAt: string;
}

// Each bucket is [lo, hi) in positions; json_each turns the bound list into rows. CROSS JOIN keeps
// the buckets as the outer loop, so each one is a single index range seek (namespace, name, lo..hi).
const BUCKETS = `WITH b(i, lo, hi) AS (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(@bounds))`;

const EVENT_COUNTS = `${BUCKETS}
SELECT b.i AS i, count(DISTINCT e.resource_version) AS changes,
  sum(e.type = 'ServiceCreated') AS created, sum(e.type = 'ServiceDeleted') AS deleted,
  sum(e.type = 'ServiceSpecChanged') AS specChanges, sum(e.type = 'ServiceMetadataChanged') AS metadataChanges,
  sum(e.type = 'LoadBalancerIngressChanged') AS ingressChanges
FROM b CROSS JOIN events e INDEXED BY events_name_position ON e.namespace = @namespace AND e.name = @name AND e.position >= b.lo AND e.position < b.hi
GROUP BY b.i`;

const TRANSITION_COUNTS = `${BUCKETS}
SELECT b.i AS i, count(*) AS n
FROM b CROSS JOIN condition_transitions t INDEXED BY condition_transitions_name_rv ON t.namespace = @namespace AND t.name = @name AND t.resource_version >= b.lo AND t.resource_version < b.hi
GROUP BY b.i`;

const INGRESS_SET_COUNTS = `${BUCKETS}
SELECT b.i AS i, count(*) AS n
FROM b CROSS JOIN ingress_intervals x INDEXED BY ingress_intervals_name_from ON x.namespace = @namespace AND x.name = @name AND x.from_resource_version >= b.lo AND x.from_resource_version < b.hi
GROUP BY b.i`;

export interface RankingRange {
  namespace?: string;
  fromRv: number;
  toRv: number;
  after?: { count: number; namespace: string; name: string; uid: string };
}

/** Aggregates for zoomed-out history views (either engine). */
export interface ActivitySummary {
  /** Counts per bucket; `bounds[i]` = [first position, first position after] of bucket i. */
  buckets(service: { namespace: string; name: string }, bounds: [number, number][]): Promise<BucketCounts[]>;
  /** Services by condition transitions in [fromRv, toRv], most first. */
  ranking(range: RankingRange, limit: number): Promise<TransitionRank[]>;
}

/** DI token of the engine's ActivitySummary. */
export const ACTIVITY_SUMMARY = Symbol('ACTIVITY_SUMMARY');

export class ActivitySummaryRepository implements ActivitySummary {
  constructor(private readonly handle: DatabaseHandle) {}

  /** Counts per bucket; `bounds[i]` = [first position, first position after] of bucket i. */
  async buckets(service: { namespace: string; name: string }, bounds: [number, number][]): Promise<BucketCounts[]> {
    const params = { ...service, bounds: JSON.stringify(bounds) };
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
    for (const row of this.handle.statement(EVENT_COUNTS).all(params) as (Omit<BucketCounts, 'index' | 'conditionTransitions' | 'ingressSets'> & { i: number })[]) {
      const { i, ...counts } = row;
      Object.assign(out[i], counts);
    }
    for (const row of this.handle.statement(TRANSITION_COUNTS).all(params) as { i: number; n: number }[]) out[row.i].conditionTransitions = row.n;
    for (const row of this.handle.statement(INGRESS_SET_COUNTS).all(params) as { i: number; n: number }[]) out[row.i].ingressSets = row.n;
    return out;
  }

  /** The SQL of one ranking page (exported for the query-plan test). */
  static rankingSql(scope: { namespace?: string; after?: boolean }): string {
    const where = ['resource_version >= @fromRv', 'resource_version <= @toRv'];
    if (scope.namespace !== undefined) where.push('namespace = @namespace');
    const index = scope.namespace !== undefined ? 'condition_transitions_namespace_rv' : 'condition_transitions_rv';
    // Keyset over (transitions desc, namespace, name, uid) so pages never skip or repeat.
    const having = scope.after
      ? 'HAVING count(*) < @afterCount OR (count(*) = @afterCount AND (namespace, name, uid) > (@afterNamespace, @afterName, @afterUid))'
      : '';
    return `SELECT namespace, name, uid, count(*) AS transitions, max(recorded_at) AS lastAt FROM condition_transitions INDEXED BY ${index}
      WHERE ${where.join(' AND ')} GROUP BY uid ${having} ORDER BY transitions DESC, namespace, name, uid LIMIT @limit`;
  }

  /** Services by condition transitions in [fromRv, toRv], most first. */
  async ranking(range: RankingRange, limit: number): Promise<TransitionRank[]> {
    const sql = ActivitySummaryRepository.rankingSql({ namespace: range.namespace, after: range.after !== undefined });
    const params: Record<string, unknown> = { fromRv: range.fromRv, toRv: range.toRv, limit };
    if (range.namespace !== undefined) params.namespace = range.namespace;
    if (range.after) Object.assign(params, { afterCount: range.after.count, afterNamespace: range.after.namespace, afterName: range.after.name, afterUid: range.after.uid });
    return this.handle.statement(sql).all(params) as TransitionRank[];
  }
}
