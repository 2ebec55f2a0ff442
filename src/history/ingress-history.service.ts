// Ingress history: every interval during which a Service held a load-balancer IP or hostname,
// who held an address at a time or during a window (and who assigned it), and conflicts.
import { Injectable } from '@nestjs/common';
import { BadRequestError } from '../domain/errors/domain-errors';
import { IngressHistoryRepository } from '../store/ingress-history-repository';
import { LogPositions } from '../store/log-positions';
import { ServiceRepository } from '../store/service-repository';
import { ingressConflict, ingressInterval, ingressOwner } from './history-items';
import { HistoryList, readPage } from './history-list-page';
import { HistoryQuery } from './history-query';
import { HistoryScope, scopeKey } from './history-scope';
import { checkNotTooLarge, readWindow, resolveStateWindow, resolveWindow, WINDOW_PARAMS } from './history-window';

const INTERVAL_PARAMS = [...WINDOW_PARAMS, 'address', 'addressType', 'actor', 'uid', 'limit', 'continue'];
const OWNER_PARAMS = ['address', 'at', 'from', 'to', 'limit', 'continue'];
const CONFLICT_PARAMS = [...WINDOW_PARAMS, 'address', 'uid', 'limit', 'continue'];

@Injectable()
export class IngressHistoryService {
  constructor(
    private readonly ingress: IngressHistoryRepository,
    private readonly positions: LogPositions,
    private readonly snapshots: ServiceRepository,
  ) {}

  intervals(scope: HistoryScope, rawQuery: unknown): HistoryList<ReturnType<typeof ingressInterval>> {
    const query = HistoryQuery.parse('ingressintervals', rawQuery, INTERVAL_PARAMS);
    const window = readWindow(query);
    const filters = {
      ...scope,
      uid: query.string('uid'),
      address: query.string('address'),
      addressType: query.oneOf('addressType', ['ip', 'hostname'] as const),
      setBy: query.string('actor'),
    };
    return this.snapshots.snapshot(() => {
      const head = this.positions.head();
      checkNotTooLarge(window, head);
      return readPage({
        listKind: 'IngressIntervalList',
        scope: scopeKey('ingressintervals', scope),
        query,
        keyShape: ['number', 'number'],
        head,
        read: (snapshot, after, limit) => {
          const w = resolveStateWindow(window, snapshot, this.positions);
          const cursor = after ? { from: Number(after[0]), id: Number(after[1]) } : undefined;
          return this.ingress.intervals({ ...filters, fromRv: w.fromRv, toRv: w.toRv, windowed: w.bounded, after: cursor }, limit);
        },
        keyOf: (row) => [row.fromResourceVersion, row.id],
        toItem: ingressInterval,
      });
    });
  }

  /** Who held `address` at `at`, or at any moment of [from, to] (default: ever). */
  owners(rawQuery: unknown): HistoryList<ReturnType<typeof ingressOwner>> {
    const query = HistoryQuery.parse('ingressowners', rawQuery, OWNER_PARAMS);
    const address = query.string('address');
    if (address === undefined) throw new BadRequestError('ingressowners needs an address: ?address=203.0.113.7 (an IP or a hostname)');
    const at = query.time('at');
    const from = query.time('from');
    const to = query.time('to');
    if (at !== undefined && (from !== undefined || to !== undefined)) throw new BadRequestError('give either at, or from and/or to, not both');
    if (from !== undefined && to !== undefined && from > to) throw new BadRequestError(`invalid window: from ${from} is after to ${to}`);
    const window = at !== undefined ? { since: at, until: at } : { since: from, until: to };
    return this.snapshots.snapshot(() =>
      readPage({
        listKind: 'IngressOwnerList',
        scope: scopeKey('ingressowners', {}),
        query,
        keyShape: ['number', 'number'],
        head: this.positions.head(),
        read: (snapshot, after, limit) => {
          const w = resolveStateWindow(window, snapshot, this.positions);
          const cursor = after ? { from: Number(after[0]), id: Number(after[1]) } : undefined;
          return this.ingress.intervals({ address, fromRv: w.fromRv, toRv: w.toRv, windowed: w.bounded, after: cursor }, limit);
        },
        keyOf: (row) => [row.fromResourceVersion, row.id],
        toItem: ingressOwner,
      }),
    );
  }

  /** Two Services holding one address at once; since/until select when the conflict began. */
  conflicts(scope: HistoryScope, rawQuery: unknown): HistoryList<ReturnType<typeof ingressConflict>> {
    const query = HistoryQuery.parse('ingressconflicts', rawQuery, CONFLICT_PARAMS);
    const window = readWindow(query);
    const filters = { ...scope, uid: query.string('uid'), address: query.string('address') };
    return this.snapshots.snapshot(() => {
      const head = this.positions.head();
      checkNotTooLarge(window, head);
      return readPage({
        listKind: 'IngressConflictList',
        scope: scopeKey('ingressconflicts', scope),
        query,
        keyShape: ['number', 'number', 'number'],
        head,
        read: (snapshot, after, limit) => {
          const w = resolveWindow(window, snapshot, this.positions);
          if (w.fromRv > w.toRv) return [];
          const cursor = after ? { secondFrom: Number(after[0]), secondId: Number(after[1]), firstId: Number(after[2]) } : undefined;
          return this.ingress.conflicts({ ...filters, fromRv: w.fromRv, toRv: w.toRv, after: cursor }, limit);
        },
        keyOf: (row) => [row.second.fromResourceVersion, row.second.id, row.first.id],
        toItem: ingressConflict,
      });
    });
  }
}
