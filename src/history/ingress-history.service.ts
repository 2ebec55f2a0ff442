// Ingress history: every interval during which a Service held a load-balancer IP or hostname,
// who held an address at a time or during a window (and who assigned it), and conflicts.
import { Inject, Injectable, Optional } from '@nestjs/common';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { BadRequestError } from '../domain/errors/domain-errors';
import { INGRESS_HISTORY } from '../store/ports/ingress-history';
import type { IngressHistory } from '../store/ports/ingress-history';
import { ingressConflict, ingressInterval, ingressOwner } from './history-items';
import type { MirroredEndOf } from './history-items';
import { madeBy, WriteSources } from './write-sources';
import { MIRROR_ACTORS, MIRROR_OBSERVATIONS } from '../store/ports/mirror-source-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import type { AuditActorStore } from '../store/ports/audit-actor-store';
import { HistoryList, readPage } from './history-list-page';
import { HistoryQuery } from './history-query';
import { HistoryScope, scopeKey } from './history-scope';
import { checkNotTooLarge, readWindow, resolveStateWindow, resolveWindow, WINDOW_PARAMS } from './history-window';

const INTERVAL_PARAMS = [...WINDOW_PARAMS, 'address', 'addressType', 'actor', 'uid', 'limit', 'continue'];
const OWNER_PARAMS = ['address', 'at', 'from', 'to', 'limit', 'continue'];
const CONFLICT_PARAMS = [...WINDOW_PARAMS, 'address', 'uid', 'limit', 'continue'];

@Injectable()
export class IngressHistoryService {
  private readonly sources: WriteSources;

  constructor(
    @Inject(INGRESS_HISTORY) private readonly ingress: IngressHistory,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
    /** Mirror mode only: where each recorded write came from, and who made it. */
    @Optional() @Inject(MIRROR_OBSERVATIONS) observations?: MirrorObservations,
    @Optional() @Inject(MIRROR_ACTORS) actors?: Pick<AuditActorStore, 'actors'>,
  ) {
    this.sources = new WriteSources(observations, actors);
  }

  /**
   * The mirrored writes among an item's resourceVersions (none outside mirror mode): where each
   * came from and who made it, as known at `knownAt` (the answer's `until`, `to` or `at`).
   */
  private async endsOf(resourceVersions: readonly (number | null)[], knownAt: string | undefined): Promise<MirroredEndOf> {
    if (!this.sources.mirrored) return () => undefined;
    const found = await this.sources.of(
      resourceVersions.filter((rv): rv is number => rv !== null),
      knownAt,
    );
    return (rv) => {
      const write = found.get(rv);
      if (!write) return undefined;
      const by = madeBy(write);
      return { source: write.source, ...(by ? { by } : {}) };
    };
  }

  async intervals(scope: HistoryScope, rawQuery: unknown): Promise<HistoryList<ReturnType<typeof ingressInterval>>> {
    const query = HistoryQuery.parse('ingressintervals', rawQuery, INTERVAL_PARAMS);
    const window = readWindow(query);
    const filters = {
      ...scope,
      uid: query.string('uid'),
      address: query.string('address'),
      addressType: query.oneOf('addressType', ['ip', 'hostname'] as const),
      setBy: query.string('actor'),
    };
    return this.reads.inSnapshot(async () => {
      const head = await this.reads.head();
      checkNotTooLarge(window, head);
      return readPage({
        listKind: 'IngressIntervalList',
        scope: scopeKey('ingressintervals', scope),
        query,
        keyShape: ['number', 'number'],
        head,
        read: async (snapshot, after, limit) => {
          const w = await resolveStateWindow(window, snapshot, this.reads);
          const cursor = after ? { from: Number(after[0]), id: Number(after[1]) } : undefined;
          return await this.ingress.intervals({ ...filters, fromRv: w.fromRv, toRv: w.toRv, windowed: w.bounded, after: cursor }, limit);
        },
        keyOf: (row) => [row.fromResourceVersion, row.id],
        toItem: async (row, snapshot) => ingressInterval(row, snapshot, await this.endsOf([row.fromResourceVersion, row.toResourceVersion], window.until)),
      });
    });
  }

  /** Who held `address` at `at`, or at any moment of [from, to] (default: ever). */
  async owners(rawQuery: unknown): Promise<HistoryList<ReturnType<typeof ingressOwner>>> {
    const query = HistoryQuery.parse('ingressowners', rawQuery, OWNER_PARAMS);
    const address = query.string('address');
    if (address === undefined) throw new BadRequestError('ingressowners needs an address: ?address=203.0.113.7 (an IP or a hostname)');
    const at = query.time('at');
    const from = query.time('from');
    const to = query.time('to');
    if (at !== undefined && (from !== undefined || to !== undefined)) throw new BadRequestError('give either at, or from and/or to, not both');
    if (from !== undefined && to !== undefined && from > to) throw new BadRequestError(`invalid window: from ${from} is after to ${to}`);
    const window = at !== undefined ? { since: at, until: at } : { since: from, until: to };
    return this.reads.inSnapshot(async () =>
      readPage({
        listKind: 'IngressOwnerList',
        scope: scopeKey('ingressowners', {}),
        query,
        keyShape: ['number', 'number'],
        head: await this.reads.head(),
        read: async (snapshot, after, limit) => {
          const w = await resolveStateWindow(window, snapshot, this.reads);
          const cursor = after ? { from: Number(after[0]), id: Number(after[1]) } : undefined;
          return await this.ingress.intervals({ address, fromRv: w.fromRv, toRv: w.toRv, windowed: w.bounded, after: cursor }, limit);
        },
        keyOf: (row) => [row.fromResourceVersion, row.id],
        toItem: async (row, snapshot) => ingressOwner(row, snapshot, await this.endsOf([row.fromResourceVersion, row.toResourceVersion], window.until)),
      }),
    );
  }

  /** Two Services holding one address at once; since/until select when the conflict began. */
  async conflicts(scope: HistoryScope, rawQuery: unknown): Promise<HistoryList<ReturnType<typeof ingressConflict>>> {
    const query = HistoryQuery.parse('ingressconflicts', rawQuery, CONFLICT_PARAMS);
    const window = readWindow(query);
    const filters = { ...scope, uid: query.string('uid'), address: query.string('address') };
    return this.reads.inSnapshot(async () => {
      const head = await this.reads.head();
      checkNotTooLarge(window, head);
      return readPage({
        listKind: 'IngressConflictList',
        scope: scopeKey('ingressconflicts', scope),
        query,
        keyShape: ['number', 'number', 'number'],
        head,
        read: async (snapshot, after, limit) => {
          const w = await resolveWindow(window, snapshot, this.reads);
          if (w.fromRv > w.toRv) return [];
          const cursor = after ? { secondFrom: Number(after[0]), secondId: Number(after[1]), firstId: Number(after[2]) } : undefined;
          return await this.ingress.conflicts({ ...filters, fromRv: w.fromRv, toRv: w.toRv, after: cursor }, limit);
        },
        keyOf: (row) => [row.second.fromResourceVersion, row.second.id, row.first.id],
        toItem: async (row, snapshot) =>
          ingressConflict(row, snapshot, await this.endsOf([row.first.fromResourceVersion, row.first.toResourceVersion, row.second.fromResourceVersion, row.second.toResourceVersion], window.until)),
      });
    });
  }
}
