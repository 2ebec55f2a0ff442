// The engine's HistoryCompactor: the one compaction algorithm (history-compaction.ts) over the
// engine's SQL writer, with its own way of giving space back. In the server, SQLite's
// transactions join the group commit; a command's run on a connection of its own.
import { HistoryCompaction } from './history-compaction';
import type { GroupCommitter } from './group-commit';
import { PgServiceReadStore } from './postgres/pg-service-read-store';
import { PgSqlWriter } from './postgres/pg-sql-writer';
import type { HistoryCompactor } from './ports/history-compaction';
import { SqliteServiceReadStore } from './sqlite-service-read-store';
import { sqliteSpaceReclaim } from './sqlite-space-reclaim';
import { SqliteSqlWriter } from './sqlite-sql-writer';
import type { StoreEngine } from './store-engine';
import { type Clock, systemClock } from '../shared/clock';
import { WriteLockPacing } from './write-lock-pacing';

/**
 * `clock`: the server's (the times a compaction records); a command's own: the system clock.
 * `pacing`: a command's on SQLite, which records how long its transactions held the write lock.
 */
export function historyCompactorFor(engine: StoreEngine, committer?: GroupCommitter, clock: Clock = systemClock, pacing = new WriteLockPacing()): HistoryCompactor {
  const now = () => clock.now().toISOString();
  if (engine.kind === 'sqlite') {
    return new HistoryCompaction(new SqliteSqlWriter(engine.handle, committer, pacing), new SqliteServiceReadStore(engine.handle), sqliteSpaceReclaim(engine.handle, committer, pacing), now);
  }
  const pool = engine.handle.pool;
  // VACUUM runs outside a transaction; the rows a compaction emptied become reusable space.
  const vacuum = async () => void (await pool.query('VACUUM (ANALYZE) service_revisions'));
  return new HistoryCompaction(new PgSqlWriter(pool), new PgServiceReadStore(pool), vacuum, now);
}
