// One catch-up step of replay: the writes a running server committed after `after` are copied
// from the live log (attached to the scratch connection as LIVE_SCHEMA) into the scratch log and
// folded onto the scratch projections. It only reads the live file; inside replay's final swap
// transaction it runs as a savepoint and sees every write, since the swap holds the write lock.
import { Projector } from '../projections/projector';
import type { DatabaseHandle } from '../store/database';
import { foldWritesAfter, type StreamStates } from './catch-up-fold';
import { EVENT_TABLE_COLUMNS } from './event-columns';

export const LIVE_SCHEMA = 'live';

export interface CatchUpStep {
  /** The scratch log now ends here. */
  head: number;
  writes: number;
  /** The streams those writes touched: only their projection rows changed. */
  streams: WrittenStream[];
}

/** A stream (a Service's or an Event's incarnation) and the name it lives under. */
export interface WrittenStream {
  uid: string;
  namespace: string;
  name: string;
}

export function liveHead(scratch: DatabaseHandle): number {
  return scratch.sqlite.prepare(`SELECT coalesce(max(position), 0) FROM ${LIVE_SCHEMA}.events`).pluck().get() as number;
}

export function catchUpWithLive(scratch: DatabaseHandle, after: number, states: StreamStates): CatchUpStep {
  const sqlite = scratch.sqlite;
  const columns = EVENT_TABLE_COLUMNS.map((c) => c.column).join(', ');
  return sqlite.transaction((): CatchUpStep => {
    const head = liveHead(scratch); // the first read pins the live snapshot
    if (head <= after) return { head: after, writes: 0, streams: [] };
    // Whole writes only: resource_version <= head drops a write the head would cut in half.
    // The repeated texts added since (the scratch holds a copy of the live ones, under the same ids).
    sqlite.prepare(`INSERT INTO main.repeated_texts (id, text) SELECT id, text FROM ${LIVE_SCHEMA}.repeated_texts WHERE id > (SELECT coalesce(max(id), 0) FROM main.repeated_texts)`).run();
    sqlite
      .prepare(`INSERT INTO main.events (${columns}) SELECT ${columns} FROM ${LIVE_SCHEMA}.events WHERE position > ? AND position <= ? AND resource_version <= ? ORDER BY position`)
      .run(after, head, head);
    const streams = sqlite.prepare('SELECT DISTINCT stream_id AS uid, namespace, name FROM main.events WHERE position > ?').all(after) as WrittenStream[];
    const writes = foldWritesAfter(scratch, new Projector(scratch), after, states);
    return { head, writes, streams };
  })();
}
