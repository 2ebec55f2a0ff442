// The log keeps every event, so a fold of it rebuilds every revision's object; a compacted store
// holds objects only from its horizon on (anchors aside). Replay, verify and a point-in-time copy
// bring what they fold to the store's horizon with the compaction's own steps, so a compacted
// store replays and verifies clean and stays compacted.
import type Database from 'better-sqlite3';
import type { DatabaseHandle } from '../store/database';
import { LIVE_TABLES, removalSteps } from '../store/history-compaction';
import type { SqlStatement } from '../store/sql/sql-writer';
import { bound } from '../store/sqlite-sql-reader';

/** The newest compaction's horizon of a SQLite store (0: never compacted, or older than compaction). */
export function sqliteHorizon(sqlite: Database.Database): number {
  const compacted = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'compactions'`).get();
  if (!compacted) return 0;
  return sqlite.prepare('SELECT coalesce(max(horizon_resource_version), 0) FROM compactions').pluck().get() as number;
}

/** Whether a SQLite store's compactions record their facts' checksums (migration 0011). */
export function recordsFactsChecksums(sqlite: Database.Database): boolean {
  return sqlite.prepare(`SELECT 1 FROM pragma_table_info('compactions') WHERE name = 'facts_checksum'`).get() !== undefined;
}

/**
 * Moves in a scratch database's fold (which no server writes) the revisions a compaction to
 * `horizon` moved: the compaction's steps, run synchronously on the scratch connection.
 */
export function foldToHorizon(scratch: Pick<DatabaseHandle, 'sqlite'>, horizon: number): void {
  if (horizon <= 0) return;
  const { sqlite } = scratch;
  const run = ({ sql, params = [] }: SqlStatement): unknown[] => {
    const statement = sqlite.prepare(sql);
    const args = params.length ? [bound(params)] : [];
    if (statement.reader) return statement.all(...args);
    statement.run(...args);
    return [];
  };
  const steps = removalSteps('sqlite', horizon, LIVE_TABLES);
  for (let next = steps.next([]); !next.done;) {
    const step = next.value;
    next = steps.next('read' in step ? run(step.read) : sqlite.transaction(() => step.write.flatMap(run))());
  }
}
