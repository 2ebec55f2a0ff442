// Aggregates for zoomed-out history views: counts per time bucket of one Service, and the
// Services with the most condition transitions, whatever the engine.

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
