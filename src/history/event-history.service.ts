// The Events history: every write of a core/v1 Event, kept forever (kube-apiserver forgets an
// Event an hour after its last write). About one Service (every Event whose involvedObject names
// it, across its incarnations), or every Event of a namespace or the cluster; filtered by window,
// type, reason, reporting controller and the involved object's uid.
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { AuditActorStore } from '../store/ports/audit-actor-store';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import { KUBE_EVENT_HISTORY } from '../store/ports/kube-event-history';
import type { KubeEventHistory } from '../store/ports/kube-event-history';
import { MIRROR_ACTORS, MIRROR_OBSERVATIONS } from '../store/ports/mirror-source-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { type EventOccurrence, eventOccurrence, eventWriteOfRow } from './event-occurrence';
import { type HistoryList, readPage } from './history-list-page';
import { HistoryQuery } from './history-query';
import { type HistoryScope, scopeKey } from './history-scope';
import { checkNotTooLarge, readWindow, resolveWindow, WINDOW_PARAMS } from './history-window';
import { WriteSources } from './write-sources';

const PARAMS = [...WINDOW_PARAMS, 'uid', 'type', 'reason', 'reportingController', 'limit', 'continue'];

@Injectable()
export class EventHistoryService {
  private readonly sources: WriteSources;

  constructor(
    @Inject(KUBE_EVENT_HISTORY) private readonly events: KubeEventHistory,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
    /** Mirror mode only: where each recorded write came from, and who made it. */
    @Optional() @Inject(MIRROR_OBSERVATIONS) observations?: MirrorObservations,
    @Optional() @Inject(MIRROR_ACTORS) actors?: Pick<AuditActorStore, 'actors'>,
  ) {
    this.sources = new WriteSources(observations, actors);
  }

  async list(scope: HistoryScope, rawQuery: unknown): Promise<HistoryList<EventOccurrence>> {
    const query = HistoryQuery.parse('events', rawQuery, PARAMS);
    const window = readWindow(query);
    const filters = {
      // A Service's Events are those about it; a namespace's are the Events kept in it.
      ...(scope.name !== undefined ? { involved: { kind: 'Service', namespace: scope.namespace!, name: scope.name } } : { namespace: scope.namespace }),
      involvedUid: query.string('uid'),
      type: query.string('type'),
      reason: query.string('reason'),
      reportingController: query.string('reportingController'),
    };
    return this.reads.inSnapshot(async () => {
      const head = await this.reads.head();
      checkNotTooLarge(window, head);
      return readPage({
        listKind: 'EventOccurrenceList',
        scope: scopeKey('events', scope),
        query,
        keyShape: ['number'],
        head,
        read: async (snapshot, after, limit) => {
          const w = await resolveWindow(window, snapshot, this.reads);
          const fromRv = Math.max(w.fromRv, after ? Number(after[0]) + 1 : 0);
          if (fromRv > w.toRv) return [];
          const rows = await this.events.occurrences({ ...filters, fromRv, toRv: w.toRv }, limit);
          const mirrored = await this.sources.of(
            rows.map((r) => r.resourceVersion),
            window.until,
          );
          return rows.map((row) => {
            const m = mirrored.get(row.resourceVersion);
            return eventOccurrence(eventWriteOfRow(row), m?.source, m?.actor);
          });
        },
        keyOf: (item) => [Number(item.metadata.resourceVersion)],
        toItem: (item) => item,
      });
    });
  }
}
