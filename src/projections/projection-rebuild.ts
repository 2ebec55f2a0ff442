// Rebuilds every projection from the event log alone, in one transaction: the proof that the
// projections hold nothing the log cannot reproduce (and the core of replay, verify, import and
// point-in-time copies).
//
// A bulk load: the projection tables' secondary indexes and triggers are dropped first and
// created again at the end (building an index once, from sorted rows, is far cheaper than
// keeping it up to date through every insert), companions the triggers kept (the R-tree) are
// rebuilt by their projection, and the page cache is enlarged for the duration. All of it is
// inside the one transaction: a failed rebuild leaves the schema and the rows as they were.
import { initialServiceState, type ServiceState } from '../domain/service.evolve';
import type { DatabaseHandle } from '../store/database';
import { createDerived, derivedSchema, dropDerived } from '../store/derived-schema';
import { initialKubeEventState, type KubeEventState } from '../domain/kube-event/kube-event.evolve';
import type { KubeEventFact } from '../domain/kube-event/kube-event.facts';
import type { CommittedEventWrite } from '../store/ports/committed-event-write';
import { isEventRecord, type RecordedEvent } from '../store/ports/recorded-event';
import { foldEventWrite } from './committed-event-write';
import { foldWrite } from './committed-write';
import { type LogSource, readLog } from './log-reader';
import type { CommittedWrite } from '../store/ports/committed-write';
import type { Projector } from './projector';

export interface RebuildReport {
  events: number;
  writes: number;
}

/**
 * Page cache during a rebuild (KiB; SQLite's default is 2 MB). 32 MB folded a 250k-event log in
 * the same time as 64 MB (verify 16.1 against 16.2 s, replay 30.4-31.5 against 30.2-32.8 s) and
 * took 34-50 MB less at the peak; 16 MB took no less than 32 (the JS heap is the rest).
 */
const REBUILD_CACHE_KIB = 32_768;

/**
 * `folded` hears of every write folded (with its number of events), for progress reports.
 * `source` is where the log is read (default: the whole log of `handle` itself); verify and
 * replay read the live file's snapshot on its own connection and write only the projections.
 */
export function rebuildProjections(handle: DatabaseHandle, projector: Projector, folded?: (events: number) => void, source?: LogSource): RebuildReport {
  const tables = projector.tables;
  const cacheSize = handle.sqlite.pragma('cache_size', { simple: true }) as number;
  handle.sqlite.pragma(`cache_size = -${REBUILD_CACHE_KIB}`);
  try {
    return handle.sqlite
      .transaction(() => {
        const derived = derivedSchema(handle.sqlite, tables);
        dropDerived(handle.sqlite, derived);
        for (const table of tables) handle.sqlite.prepare(`DELETE FROM ${table}`).run();
        const report = refill(handle, source ?? { sqlite: handle.sqlite }, projector, folded);
        createDerived(handle.sqlite, derived);
        for (const projection of [...projector.projections, ...projector.eventProjections]) projection.rebuilt?.();
        return report;
      })
      .immediate();
  } finally {
    handle.sqlite.pragma(`cache_size = ${cacheSize}`);
  }
}

function refill(handle: DatabaseHandle, source: LogSource, projector: Projector, folded?: (events: number) => void): RebuildReport {
  const throughHistory = projector.projections.filter((p) => !p.presentOnly).map((p) => p.bulkFold?.() ?? { apply: (w: CommittedWrite) => p.apply(w), finish: () => {} });
  const present = projector.projections.filter((p) => p.presentOnly);
  const states = new Map<string, { state: ServiceState; last: CommittedWrite }>();
  const events = new EventStreamFold(projector);
  let eventCount = 0;
  let writes = 0;
  let pending: RecordedEvent[] = [];
  const flush = () => {
    if (!pending.length) return;
    const streamId = pending[0].streamId;
    const held = states.get(streamId);
    // A held state is the one whose object this fold stored as the stream's last revision.
    const write = { ...foldWrite(held?.state ?? initialServiceState, pending), beforeStored: held !== undefined };
    for (const projection of throughHistory) projection.apply(write);
    if (write.after.deleted) states.delete(streamId);
    // Kept per live Service until the end: its state and what the present-only projections read
    // (not the write's events, the state before it nor the encoded object, which is made again
    // at the end: all of them would double the memory held).
    else states.set(streamId, { state: write.after, last: { ...write, events: [], before: initialServiceState, objectJson: null } });
    folded?.(pending.length);
    writes++;
    pending = [];
  };
  for (const recorded of readLog(source, handle.sqlite)) {
    if (pending.length && pending[0].resourceVersion !== recorded.resourceVersion) flush();
    eventCount++;
    if (isEventRecord(recorded)) {
      // An Event write is one fact of its own (never part of a Service's write).
      events.apply(recorded);
      folded?.(1);
      writes++;
      continue;
    }
    pending.push(recorded as RecordedEvent);
  }
  flush();
  for (const fold of throughHistory) fold.finish();
  // The present: each live Service as if created by its last write, in the log's order.
  const live = [...states.values()].sort((a, b) => a.last.resourceVersion - b.last.resourceVersion);
  for (const { last } of live) {
    const write = { ...last, objectJson: JSON.stringify(last.after.object) };
    for (const projection of present) projection.apply(write);
  }
  events.finish();
  return { events: eventCount, writes };
}

/**
 * The Events' side of a rebuild: every write through the history projections, the present-only
 * ones (the live Events) once per Event still alive at the end.
 */
class EventStreamFold {
  private readonly throughHistory;
  private readonly present;
  private readonly states = new Map<string, { state: KubeEventState; last: CommittedEventWrite }>();

  constructor(projector: Projector) {
    this.throughHistory = projector.eventProjections.filter((p) => !p.presentOnly);
    this.present = projector.eventProjections.filter((p) => p.presentOnly);
  }

  apply(recorded: RecordedEvent<KubeEventFact>): void {
    const held = this.states.get(recorded.streamId);
    const write = foldEventWrite(held?.state ?? initialKubeEventState, recorded);
    for (const projection of this.throughHistory) projection.apply(write);
    if (write.after.object) this.states.set(recorded.streamId, { state: write.after, last: { ...write, before: initialKubeEventState, objectJson: null } });
    else this.states.delete(recorded.streamId);
  }

  finish(): void {
    const live = [...this.states.values()].sort((a, b) => a.last.resourceVersion - b.last.resourceVersion);
    for (const { last } of live) {
      const write = { ...last, objectJson: JSON.stringify(last.after.object) };
      for (const projection of this.present) projection.apply(write);
    }
  }
}
