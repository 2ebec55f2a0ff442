// Folds the writes appended after a resourceVersion onto projection tables that already hold the
// state at that resourceVersion: what replay does, in rounds and inside its swap transaction, for
// writes a running server committed while the fresh tables were being built.
import type { Service } from '../domain/service.types';
import { evolveAll, initialServiceState, type ServiceState } from '../domain/service.evolve';
import { foldWrite } from '../projections/committed-write';
import type { Projector } from '../projections/projector';
import type { DatabaseHandle } from '../store/database';
import { SqliteEventStore } from '../store/event-store';
import { initialKubeEventState, type KubeEventState } from '../domain/kube-event/kube-event.evolve';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { foldEventWrite } from '../projections/committed-event-write';
import { isEventRecord, type LoggedEvent, type RecordedEvent } from '../store/ports/recorded-event';

const PAGE = 1000;

/**
 * Stream states at the point the projections have reached, kept across calls: replay folds in
 * several rounds, and the last one runs under the write lock, where re-reading a busy stream's
 * whole history would be the slowest part.
 */
export type StreamStates = Map<string, ServiceState | KubeEventState>;

export function foldWritesAfter(handle: DatabaseHandle, projector: Projector, afterResourceVersion: number, states: StreamStates = new Map()): number {
  const store = new SqliteEventStore(handle);
  // The live write path loads a Service's state from the current-object projection; these tables
  // were folded from the log by the same code, so the row is the fold's state at this point.
  const current = handle.sqlite.prepare('SELECT object, stream_version AS streamVersion FROM services WHERE uid = ?');
  const stateOf = (streamId: string): ServiceState => {
    const known = states.get(streamId) as ServiceState | undefined;
    if (known) return known;
    const row = current.get(streamId) as { object: string; streamVersion: number } | undefined;
    if (row) return { object: JSON.parse(row.object) as Service, streamVersion: row.streamVersion, deleted: false };
    // Not live: a stream created after this point, or (never written again) a deleted one.
    const earlier = store.readStream(streamId).filter((e): e is RecordedEvent => e.resourceVersion <= afterResourceVersion && !isEventRecord(e));
    return (groupByWrite(earlier) as RecordedEvent[][]).reduce(
      (s, w) =>
        evolveAll(
          s,
          w.map((e) => e.event),
          w[0].resourceVersion,
        ),
      initialServiceState,
    );
  };
  // An Event's state: its live row (folded from the log by the same code), else ended or not yet
  // created. Found by its name (the primary key; kube_events has no index by uid), then its uid.
  const liveEvent = handle.sqlite.prepare('SELECT object, stream_version AS streamVersion, expires_at AS expiresAt FROM kube_events WHERE namespace = ? AND name = ? AND uid = ?');
  const eventStateOf = (recorded: LoggedEvent): KubeEventState => {
    const known = states.get(recorded.streamId) as KubeEventState | undefined;
    if (known) return known;
    const row = liveEvent.get(recorded.namespace, recorded.name, recorded.streamId) as { object: string; streamVersion: number; expiresAt: string | null } | undefined;
    if (!row) return initialKubeEventState;
    return { object: JSON.parse(row.object) as KubeEvent, streamVersion: row.streamVersion, ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}) };
  };
  let writes = 0;
  for (let after = afterResourceVersion; ;) {
    const page = store.readAll(after, PAGE);
    // A page may end inside a write; keep its tail for the next round.
    const complete = page.length < PAGE ? page : page.filter((e) => e.resourceVersion !== page[page.length - 1].resourceVersion);
    if (!complete.length && page.length) throw new Error(`a write at resourceVersion ${page[0].resourceVersion} has more than ${PAGE} events`);
    for (const events of groupByWrite(complete)) {
      const first = events[0];
      if (isEventRecord(first)) {
        const write = foldEventWrite(eventStateOf(first), first);
        projector.applyEvent(write);
        states.set(write.streamId, write.after);
        writes++;
        continue;
      }
      const write = foldWrite(stateOf(first.streamId), events as RecordedEvent[]);
      projector.apply(write);
      states.set(write.streamId, write.after);
      writes++;
    }
    if (page.length < PAGE) return writes;
    after = complete[complete.length - 1].position;
  }
}

function groupByWrite(events: readonly LoggedEvent[]): LoggedEvent[][] {
  const groups: LoggedEvent[][] = [];
  for (const e of events) {
    const last = groups[groups.length - 1];
    if (last && last[0].resourceVersion === e.resourceVersion) last.push(e);
    else groups.push([e]);
  }
  return groups;
}
