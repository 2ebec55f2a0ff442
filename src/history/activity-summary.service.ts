// Zoomed-out history: activity of one Service in time buckets (counts, not rows), and the
// Services with the most condition transitions in a window (the UI's flapping view).
import { Inject, Injectable } from '@nestjs/common';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { BadRequestError } from '../domain/errors/domain-errors';
import { ACTIVITY_SUMMARY } from '../store/ports/activity-summary';
import type { BucketCounts, TransitionRank, ActivitySummary } from '../store/ports/activity-summary';
import { DEFAULT_BUCKETS, MAX_BUCKETS, timeBuckets } from './activity-buckets';
import { HISTORY_API_VERSION } from './history-api';
import { HistoryList, readPage } from './history-list-page';
import { HistoryQuery } from './history-query';
import { HistoryScope, scopeKey } from './history-scope';
import { readWindow, resolveWindow } from './history-window';

const BUCKET_PARAMS = ['since', 'until', 'buckets'];
const RANKING_PARAMS = ['since', 'until', 'limit', 'continue'];

@Injectable()
export class ActivitySummaryService {
  constructor(
    @Inject(ACTIVITY_SUMMARY) private readonly summary: ActivitySummary,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
  ) {}

  async buckets(scope: HistoryScope, rawQuery: unknown) {
    const query = HistoryQuery.parse('activitybuckets', rawQuery, BUCKET_PARAMS);
    if (scope.namespace === undefined || scope.name === undefined) {
      throw new BadRequestError('activitybuckets are per Service: …/namespaces/NS/services/NAME/activitybuckets?since=…&until=…');
    }
    const since = query.time('since');
    const until = query.time('until');
    if (since === undefined || until === undefined) throw new BadRequestError('activitybuckets needs since and until (RFC 3339 times)');
    if (since >= until) throw new BadRequestError(`invalid window: since ${since} is not before until ${until}`);
    const count = query.positiveInteger('buckets') ?? DEFAULT_BUCKETS;
    if (count > MAX_BUCKETS) throw new BadRequestError(`invalid buckets ${count}: at most ${MAX_BUCKETS}`);
    const service = { namespace: scope.namespace, name: scope.name };
    const times = timeBuckets(since, until, count);
    return this.reads.inSnapshot(async () => {
      const head = await this.reads.head();
      const cap = (p: number) => Math.min(p, head + 1);
      // Bucket i holds positions recorded in [start, end); the last one also takes `until` itself.
      const starts: number[] = [];
      for (const t of times) starts.push(cap(await this.reads.firstPositionAtOrAfter(t.start)));
      const last = cap((await this.reads.resourceVersionAt(until)) + 1);
      const bounds = starts.map((lo, i): [number, number] => [lo, Math.max(lo, i + 1 < starts.length ? starts[i + 1] : last)]);
      const counts = await this.summary.buckets(service, bounds);
      return {
        kind: 'ActivityBucketList',
        apiVersion: HISTORY_API_VERSION,
        metadata: { resourceVersion: String(head) },
        items: counts.map((c, i) => activityBucket(service, times[i], c, head)),
      };
    });
  }

  async ranking(scope: HistoryScope, rawQuery: unknown): Promise<HistoryList<ReturnType<typeof transitionRanking>>> {
    const query = HistoryQuery.parse('transitionrankings', rawQuery, RANKING_PARAMS);
    if (scope.name !== undefined) throw new BadRequestError('transitionrankings rank Services in a namespace or the cluster, not one Service');
    const window = readWindow(query);
    return this.reads.inSnapshot(async () =>
      readPage<TransitionRank, ReturnType<typeof transitionRanking>>({
        listKind: 'TransitionRankingList',
        scope: scopeKey('transitionrankings', scope),
        query,
        keyShape: ['number', 'string', 'string', 'string'],
        head: await this.reads.head(),
        read: async (snapshot, after, limit) => {
          const w = await resolveWindow(window, snapshot, this.reads);
          if (w.fromRv > w.toRv) return [];
          const cursor = after ? { count: Number(after[0]), namespace: String(after[1]), name: String(after[2]), uid: String(after[3]) } : undefined;
          return await this.summary.ranking({ namespace: scope.namespace, fromRv: w.fromRv, toRv: w.toRv, after: cursor }, limit);
        },
        keyOf: (r) => [r.transitions, r.namespace, r.name, r.uid],
        toItem: (r, snapshot) => transitionRanking(r, snapshot),
      }),
    );
  }
}

function activityBucket(service: { namespace: string; name: string }, time: { start: string; end: string }, c: BucketCounts, head: number) {
  return {
    kind: 'ActivityBucket' as const,
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${service.name}.${c.index}`, namespace: service.namespace, resourceVersion: String(head), creationTimestamp: `${time.start.slice(0, 19)}Z` },
    start: time.start,
    end: time.end,
    changes: c.changes,
    created: c.created,
    deleted: c.deleted,
    specChanges: c.specChanges,
    metadataChanges: c.metadataChanges,
    ingressChanges: c.ingressChanges,
    conditionTransitions: c.conditionTransitions,
    ingressSets: c.ingressSets,
  };
}

function transitionRanking(r: TransitionRank, snapshot: number) {
  return {
    kind: 'TransitionRanking' as const,
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${r.name}.${r.uid}`, namespace: r.namespace, resourceVersion: String(snapshot), creationTimestamp: `${r.lastAt.slice(0, 19)}Z` },
    service: { namespace: r.namespace, name: r.name, uid: r.uid },
    transitions: r.transitions,
    lastTransitionAt: r.lastAt,
  };
}
