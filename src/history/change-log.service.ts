// The change log: every accepted write with its actor, domain events and JSON patch, per Service
// name, per namespace or cluster-wide, filtered by window, actor, event type, field manager or uid.
import { Inject, Injectable, Optional } from '@nestjs/common';
import { MIRROR_ACTORS, MIRROR_OBSERVATIONS } from '../store/ports/mirror-source-store';
import type { AuditActorStore } from '../store/ports/audit-actor-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { LRUCache } from 'lru-cache';
import { SERVICE_EVENT_TYPES } from '../domain/service.events';
import { CHANGE_HISTORY, filtersWholeWrites } from '../store/ports/change-history';
import type { ChangeHistory } from '../store/ports/change-history';
import type { EncodedJson } from '../kube-api/kube-response';
import { serviceChangeJson } from './history-items';
import { WriteSources } from './write-sources';
import { encodedHistoryList, readPage } from './history-list-page';
import { HistoryQuery } from './history-query';
import { HistoryScope, scopeKey } from './history-scope';
import { checkNotTooLarge, readWindow, resolveWindow, WINDOW_PARAMS } from './history-window';

const PARAMS = [...WINDOW_PARAMS, 'actor', 'eventType', 'fieldManager', 'uid', 'limit', 'continue'];

/**
 * Changes kept ready to serve, as JSON text. A write never changes once committed, so neither
 * does its item (its events, actor and stored patch): the cache is never invalidated. About 1-4 KB each.
 */
const CACHED_CHANGES = 4096;

@Injectable()
export class ChangeLogService {
  private readonly items = new LRUCache<number, string>({ max: CACHED_CHANGES });
  private readonly sources: WriteSources;

  constructor(
    @Inject(CHANGE_HISTORY) private readonly changes: ChangeHistory,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
    /** Mirror mode only: where each recorded write came from. */
    @Optional() @Inject(MIRROR_OBSERVATIONS) observations?: MirrorObservations,
    @Optional() @Inject(MIRROR_ACTORS) actors?: Pick<AuditActorStore, 'actors'>,
  ) {
    this.sources = new WriteSources(observations, actors);
  }

  async list(scope: HistoryScope, rawQuery: unknown): Promise<EncodedJson> {
    const query = HistoryQuery.parse('changes', rawQuery, PARAMS);
    const window = readWindow(query);
    const filters = {
      ...scope,
      uid: query.string('uid'),
      actor: query.string('actor'),
      eventType: query.oneOf('eventType', SERVICE_EVENT_TYPES),
      fieldManager: query.string('fieldManager'),
    };
    // Filters that keep writes whole read a page in one pass, items built from the rows; an
    // event-type filter finds writes by single events, and each is then read whole on its own
    // (cached: a write never changes).
    const whole = filtersWholeWrites(filters);
    return this.reads.inSnapshot(async () => {
      const head = await this.reads.head();
      checkNotTooLarge(window, head);
      return encodedHistoryList(
        await readPage<{ rv: number; item?: string }, string>({
          listKind: 'ServiceChangeList',
          scope: scopeKey('changes', scope),
          query,
          keyShape: ['number'],
          head,
          read: async (snapshot, after, limit) => {
            const w = await resolveWindow(window, snapshot, this.reads);
            const fromRv = Math.max(w.fromRv, after ? Number(after[0]) + 1 : 0);
            if (fromRv > w.toRv) return [];
            const range = { ...filters, fromRv, toRv: w.toRv, fromPosition: await this.reads.writeStartAtOrAfter(fromRv) };
            if (whole) {
              const writes = await this.changes.matchingStoredWrites(range, limit);
              const mirrored = await this.sources.of(
                writes.map((w) => w.resourceVersion),
                window.until,
              );
              return writes.map((write) => {
                const m = mirrored.get(write.resourceVersion);
                return { rv: write.resourceVersion, item: serviceChangeJson(write, m?.source, m?.actor) };
              });
            }
            return (await this.changes.matchingWrites(range, limit)).map((rv) => ({ rv }));
          },
          keyOf: (row) => [row.rv],
          toItem: (row) => row.item ?? this.change(row.rv, window.until),
        }),
      );
    });
  }

  private async change(rv: number, knownAt: string | undefined): Promise<string> {
    // A mirrored write's item changes when its actor becomes known: never cached.
    if (this.sources.mirrored) {
      const m = (await this.sources.of([rv], knownAt)).get(rv);
      return serviceChangeJson(await this.changes.storedWrite(rv), m?.source, m?.actor);
    }
    let item = this.items.get(rv);
    if (item === undefined) this.items.set(rv, (item = serviceChangeJson(await this.changes.storedWrite(rv))));
    return item;
  }
}
