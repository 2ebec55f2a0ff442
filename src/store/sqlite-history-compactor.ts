// SQLite's HistoryCompactor: the one compaction algorithm (history-compaction.ts) over SQLite's
// SQL writer, giving space back with incremental vacuum. In the server its transactions join the
// group commit; a command's run on a connection of its own.
import type { DatabaseHandle } from './database';
import { HistoryCompaction } from './history-compaction';
import type { GroupCommitter } from './group-commit';
import type { HistoryCompactor } from './ports/history-compaction';
import { SqliteServiceReadStore } from './sqlite-service-read-store';
import { sqliteSpaceReclaim } from './sqlite-space-reclaim';
import { SqliteSqlWriter } from './sqlite-sql-writer';
import { type Clock, systemClock } from '../shared/clock';
import { WriteLockPacing } from './write-lock-pacing';

/**
 * `clock`: the server's (the times a compaction records); a command's own: the system clock.
 * `pacing`: a command's, which records how long its transactions held the write lock.
 */
export function sqliteHistoryCompactor(handle: DatabaseHandle, committer?: GroupCommitter, clock: Clock = systemClock, pacing = new WriteLockPacing()): HistoryCompactor {
  return new HistoryCompaction(new SqliteSqlWriter(handle, committer, pacing), new SqliteServiceReadStore(handle), sqliteSpaceReclaim(handle, committer, pacing), () => clock.now().toISOString());
}
