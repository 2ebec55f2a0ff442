// Rebuilds every projection from the event log alone, in one transaction: the proof that the
// projections hold nothing the log cannot reproduce (and the core of replay).
import { initialServiceState, ServiceState } from '../domain/service.evolve';
import type { DatabaseHandle } from '../store/database';
import { SqliteEventStore } from '../store/event-store';
import type { RecordedEvent } from '../store/recorded-event';
import { foldWrite } from './committed-write';
import type { Projector } from './projector';

export interface RebuildReport {
  events: number;
  writes: number;
}

const REBUILD_PAGE = 1000;

export function rebuildProjections(handle: DatabaseHandle, projector: Projector): RebuildReport {
  const store = new SqliteEventStore(handle);
  return handle.sqlite
    .transaction((): RebuildReport => {
      for (const projection of projector.projections) {
        for (const table of projection.tables) handle.sqlite.prepare(`DELETE FROM ${table}`).run();
      }
      const states = new Map<string, ServiceState>();
      let events = 0;
      let writes = 0;
      let pending: RecordedEvent[] = [];
      const flush = () => {
        if (!pending.length) return;
        const streamId = pending[0].streamId;
        const write = foldWrite(states.get(streamId) ?? initialServiceState, pending);
        projector.apply(write);
        if (write.after.deleted) states.delete(streamId);
        else states.set(streamId, write.after);
        writes++;
        pending = [];
      };
      // Pages, not a cursor: the projections write on the same connection while we read.
      for (let after = 0; ; ) {
        const page = store.readAll(after, REBUILD_PAGE);
        for (const recorded of page) {
          if (pending.length && pending[0].resourceVersion !== recorded.resourceVersion) flush();
          pending.push(recorded);
          events++;
        }
        if (page.length < REBUILD_PAGE) break;
        after = page[page.length - 1].position;
      }
      flush();
      return { events, writes };
    })
    .immediate();
}

