// PostgreSQL's HistoryCompactor: the one compaction algorithm (history-compaction.ts) over
// PostgreSQL's SQL writer; VACUUM makes the rows a compaction emptied reusable space.
import type { Pool } from 'pg';
import { HistoryCompaction } from '../history-compaction';
import type { HistoryCompactor } from '../ports/history-compaction';
import { type Clock, systemClock } from '../../shared/clock';
import { PgServiceReadStore } from './pg-service-read-store';
import { PgSqlWriter } from './pg-sql-writer';

/** `clock`: the server's (the times a compaction records); a command's own: the system clock. */
export function pgHistoryCompactor(pool: Pool, clock: Clock = systemClock): HistoryCompactor {
  // VACUUM runs outside a transaction.
  const vacuum = async () => void (await pool.query('VACUUM (ANALYZE) service_revisions'));
  return new HistoryCompaction(new PgSqlWriter(pool), new PgServiceReadStore(pool), vacuum, () => clock.now().toISOString());
}
