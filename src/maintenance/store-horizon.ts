// The log keeps every event, so a fold of it rebuilds every revision's object; a compacted store
// holds objects only from its horizon on (anchors aside). Replay, verify and a point-in-time copy
// bring what they fold to the store's horizon with the compaction's own statement, so a
// compacted store replays and verifies clean and stays compacted.
import type Database from 'better-sqlite3';
import type { DatabaseHandle } from '../store/database';
import { compactionStatements } from '../store/history-compaction';
import { bound } from '../store/sqlite-sql-reader';

/** The newest compaction's horizon of a SQLite store (0: never compacted, or older than compaction). */
export function sqliteHorizon(sqlite: Database.Database): number {
  const compacted = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'compactions'`).get();
  if (!compacted) return 0;
  return sqlite.prepare('SELECT coalesce(max(horizon_resource_version), 0) FROM compactions').pluck().get() as number;
}

/** Moves in a scratch database's fold (which no server writes) the revisions a compaction to `horizon` moved. */
export function foldToHorizon(scratch: Pick<DatabaseHandle, 'sqlite'>, horizon: number): void {
  if (horizon <= 0) return;
  const { keep, remove } = compactionStatements('sqlite', undefined, true);
  scratch.sqlite.transaction(() => {
    scratch.sqlite.prepare(keep).run(bound([horizon]));
    scratch.sqlite.prepare(remove).run(bound([horizon]));
  })();
}
