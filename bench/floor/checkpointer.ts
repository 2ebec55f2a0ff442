// The floors' WAL checkpointer, run in a worker thread of floor-server.ts (and the checkpointing
// settings of its serving connection): as strict as svctrail's, so neither gains from a WAL the
// other cannot afford.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** Bytes the WAL file keeps when it starts over (journal_size_limit), as svctrail's. */
export const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** Between checkpoints while the last one left nothing behind, as svctrail's. */
const CHECKPOINT_INTERVAL_MS = 100;

export function checkpointer(): void {
  // Worker: PASSIVE checkpoints on a second connection, as strict as svctrail's own
  // (src/store/wal-checkpointer.ts, restated here: the floors import nothing from src/): every
  // 100 ms, and at once again while the last one copied frames back but left some behind, so the
  // WAL is copied back as fast as it grows; SQLite restarts it from the top at the next write
  // once everything in it is copied back, and the serving connection's journal_size_limit
  // truncates it to 64 MB then. A floor that checkpointed lazily (one try per 100 ms, no
  // limit) let its WAL grow to 2.5 GB and measured a WAL svctrail cannot afford (issue 28).
  const db = new Database(workerData.path as string);
  db.pragma('busy_timeout = 1000');
  let timer: NodeJS.Timeout;
  let copied = -1;
  const tick = () => {
    let row: { log: number; checkpointed: number } | undefined;
    try {
      [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    } catch {
      // busy: next tick
    }
    const progressed = row !== undefined && row.checkpointed > copied && row.log > row.checkpointed;
    copied = row && row.log > row.checkpointed ? row.checkpointed : -1;
    timer = setTimeout(tick, progressed ? 1 : CHECKPOINT_INTERVAL_MS);
  };
  timer = setTimeout(tick, CHECKPOINT_INTERVAL_MS);
  parentPort!.on('message', (m) => {
    if (m === 'stop') {
      clearTimeout(timer);
      db.close();
      process.exit(0);
    }
  });
}
