// Folds the writes appended after a resourceVersion onto projection tables that already hold the
// state at that resourceVersion: what replay does, inside its swap transaction, for writes a
// running server committed while the fresh tables were being built.
import type { ServiceEvent } from '../domain/service.events';
import { evolveAll, initialServiceState, ServiceState } from '../domain/service.evolve';
import { foldWrite } from '../projections/committed-write';
import type { Projector } from '../projections/projector';
import type { DatabaseHandle } from '../store/database';
import { SqliteEventStore } from '../store/event-store';
import type { RecordedEvent } from '../store/recorded-event';

const PAGE = 1000;

export function foldWritesAfter(handle: DatabaseHandle, projector: Projector, afterResourceVersion: number): number {
  const store = new SqliteEventStore(handle);
  const states = new Map<string, ServiceState>();
  // A stream's state before the catch-up starts: its own events up to there, folded write by write.
  const stateOf = (streamId: string): ServiceState => {
    const known = states.get(streamId);
    if (known) return known;
    const earlier = store.readStream(streamId).filter((e) => e.resourceVersion <= afterResourceVersion);
    return groupByWrite(earlier).reduce((s, w) => evolveAll(s, w.map((e) => e.event as ServiceEvent), w[0].resourceVersion), initialServiceState);
  };
  let writes = 0;
  for (let after = afterResourceVersion; ; ) {
    const page = store.readAll(after, PAGE);
    // A page may end inside a write; keep its tail for the next round.
    const complete = page.length < PAGE ? page : page.filter((e) => e.resourceVersion !== page[page.length - 1].resourceVersion);
    if (!complete.length && page.length) throw new Error(`a write at resourceVersion ${page[0].resourceVersion} has more than ${PAGE} events`);
    for (const events of groupByWrite(complete)) {
      const write = foldWrite(stateOf(events[0].streamId), events);
      projector.apply(write);
      states.set(write.streamId, write.after);
      writes++;
    }
    if (page.length < PAGE) return writes;
    after = complete[complete.length - 1].position;
  }
}

function groupByWrite(events: readonly RecordedEvent[]): RecordedEvent[][] {
  const groups: RecordedEvent[][] = [];
  for (const e of events) {
    const last = groups[groups.length - 1];
    if (last && last[0].resourceVersion === e.resourceVersion) last.push(e);
    else groups.push([e]);
  }
  return groups;
}
