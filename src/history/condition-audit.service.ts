// The condition audit log (every transition: type, from -> to status, reason, message,
// observedGeneration, when, who) and per-Service summaries (time in each status, transition
// counts, flapping).
import { Inject, Injectable, Optional } from '@nestjs/common';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { CONDITION_HISTORY } from '../store/ports/condition-history';
import type { ServiceKey, ConditionHistory } from '../store/ports/condition-history';
import { summarizeConditions } from '../domain/condition-summary';
import { conditionSummary, conditionTransition } from './history-items';
import { WriteSources } from './write-sources';
import { MIRROR_ACTORS, MIRROR_OBSERVATIONS } from '../store/ports/mirror-source-store';
import type { AuditActorStore } from '../store/ports/audit-actor-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import { HistoryList, readPage } from './history-list-page';
import { HistoryQuery } from './history-query';
import { HistoryScope, scopeKey } from './history-scope';
import { checkNotTooLarge, readWindow, resolveWindow, WINDOW_PARAMS } from './history-window';

const TRANSITION_PARAMS = [...WINDOW_PARAMS, 'conditionType', 'status', 'actor', 'uid', 'limit', 'continue'];
const SUMMARY_PARAMS = ['since', 'until', 'conditionType', 'uid', 'flapThreshold', 'flapWindow', 'flapping', 'limit', 'continue'];
const DEFAULT_FLAP_THRESHOLD = 3;
const DEFAULT_FLAP_WINDOW_MS = 10 * 60 * 1000;
/** Services read per round while filling a page the flapping filter may thin out. */
const SERVICE_BATCH = 100;

@Injectable()
export class ConditionAuditService {
  private readonly sources: WriteSources;

  constructor(
    @Inject(CONDITION_HISTORY) private readonly conditions: ConditionHistory,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    /** Mirror mode only: where each recorded write came from. */
    @Optional() @Inject(MIRROR_OBSERVATIONS) observations?: MirrorObservations,
    @Optional() @Inject(MIRROR_ACTORS) actors?: Pick<AuditActorStore, 'actors'>,
  ) {
    this.sources = new WriteSources(observations, actors);
  }

  async transitions(scope: HistoryScope, rawQuery: unknown): Promise<HistoryList<ReturnType<typeof conditionTransition>>> {
    const query = HistoryQuery.parse('conditiontransitions', rawQuery, TRANSITION_PARAMS);
    const window = readWindow(query);
    const filters = {
      ...scope,
      uid: query.string('uid'),
      conditionType: query.string('conditionType'),
      status: query.string('status'),
      actor: query.string('actor'),
    };
    return this.reads.inSnapshot(async () => {
      const head = await this.reads.head();
      checkNotTooLarge(window, head);
      return readPage({
        listKind: 'ConditionTransitionList',
        scope: scopeKey('conditiontransitions', scope),
        query,
        keyShape: ['number', 'number'],
        head,
        read: async (snapshot, after, limit) => {
          const w = await resolveWindow(window, snapshot, this.reads);
          if (w.fromRv > w.toRv) return [];
          const rows = await this.conditions.transitions({ ...filters, fromRv: w.fromRv, toRv: w.toRv, after: after ? { rv: Number(after[0]), id: Number(after[1]) } : undefined }, limit);
          const mirrored = await this.sources.of(
            rows.map((r) => r.resourceVersion),
            window.until,
          );
          return rows.map((row) => ({ row, mirrored: mirrored.get(row.resourceVersion) }));
        },
        keyOf: ({ row }) => [row.resourceVersion, row.id],
        toItem: ({ row, mirrored }) => conditionTransition(row, mirrored?.source, mirrored?.actor),
      });
    });
  }

  async summaries(scope: HistoryScope, rawQuery: unknown): Promise<HistoryList<ReturnType<typeof conditionSummary>>> {
    const query = HistoryQuery.parse('conditionsummaries', rawQuery, SUMMARY_PARAMS);
    const window = readWindow(query);
    const uid = query.string('uid');
    const conditionType = query.string('conditionType');
    const flapThreshold = query.positiveInteger('flapThreshold') ?? DEFAULT_FLAP_THRESHOLD;
    const flapWindowMs = query.duration('flapWindow') ?? DEFAULT_FLAP_WINDOW_MS;
    const flapping = query.boolean('flapping');
    const now = this.clock.now().toISOString();
    return this.reads.inSnapshot(async () => {
      const head = await this.reads.head();
      const summarize = async (key: ServiceKey, snapshot: number) => {
        const untilRv = window.until ? Math.min(snapshot, await this.reads.resourceVersionAt(window.until)) : snapshot;
        const rows = (await this.conditions.summaryTransitionsOfService(key.uid, untilRv)).filter((r) => !conditionType || r.conditionType === conditionType);
        const life = await this.conditions.lifetime(key.uid, untilRv);
        const start = window.since ?? life.createdAt ?? now;
        const endLimit = window.until ?? now;
        const end = life.deletedAt && life.deletedAt < endLimit ? life.deletedAt : endLimit;
        const conditions = summarizeConditions(rows, { start: Date.parse(start), end: Date.parse(end), flapThreshold, flapWindowMs });
        return conditionSummary({ service: key, createdAt: life.createdAt, deletedAt: life.deletedAt, window: { start, end }, snapshot, conditions });
      };
      type Summary = Awaited<ReturnType<typeof summarize>>;
      const keep = (s: Summary) => s.conditions.length > 0 && (flapping === undefined || s.conditions.some((c) => c.flapping) === flapping);
      return readPage<Summary, Summary>({
        listKind: 'ConditionSummaryList',
        scope: scopeKey('conditionsummaries', scope),
        query,
        keyShape: ['string', 'string', 'string'],
        head,
        read: async (snapshot, after, limit) => {
          let cursor = after ? { namespace: String(after[0]), name: String(after[1]), uid: String(after[2]) } : undefined;
          const out: Summary[] = [];
          for (;;) {
            // A uid filter names one incarnation: its transitions are one index lookup.
            const batch = uid !== undefined ? await this.conditions.serviceOf(uid, scope, cursor) : await this.conditions.services({ ...scope, after: cursor }, SERVICE_BATCH);
            for (const key of batch) {
              cursor = key;
              const summary = await summarize(key, snapshot);
              if (keep(summary)) out.push(summary);
              if (out.length === limit) return out;
            }
            if (uid !== undefined || batch.length < SERVICE_BATCH) return out;
          }
        },
        keyOf: (s) => [s.service.namespace, s.service.name, s.service.uid],
        toItem: (s) => s,
      });
    });
  }
}
