// Gives the pages a compaction freed back to the file system: the database is in
// auto_vacuum = INCREMENTAL (database.ts), so `incremental_vacuum` moves pages from the end of
// the file into free ones and truncates it, a bounded number per transaction so that no write
// waits long (steps sized to take about TARGET_STEP_MS, at most 2 MiB each: how long a page takes
// to move depends on what points at it; a command leaves the lock free after each for a server's
// writes, write-lock-pacing.ts). The WAL that recorded it is then checkpointed
// PASSIVE, which never blocks a server's writes, and truncated only if that copied everything
// (then resetting it is brief). In the server the group commit runs the steps and the WAL
// checkpointer does the rest on its schedule.
import type { DatabaseHandle } from './database';
import type { GroupCommitter } from './group-commit';
import { BatchSizer } from './batch-sizer';
import { WriteLockPacing } from './write-lock-pacing';

/** The most pages moved per transaction (4 KiB each). */
const PAGES_PER_STEP = 512;
/** How long a step should hold the write lock. */
const TARGET_STEP_MS = 150;

export function sqliteSpaceReclaim(handle: Pick<DatabaseHandle, 'sqlite'>, committer?: GroupCommitter, pacing = new WriteLockPacing()): () => Promise<void> {
  const sqlite = handle.sqlite;
  const free = () => sqlite.pragma('freelist_count', { simple: true }) as number;
  return async () => {
    const sizer = new BatchSizer(PAGES_PER_STEP, TARGET_STEP_MS, 8, PAGES_PER_STEP);
    for (let before = free(); before > 0;) {
      const pages = sizer.next;
      const step = () => sqlite.pragma(`incremental_vacuum(${pages})`);
      const started = performance.now();
      await (committer ? committer.run(step) : pacing.hold(step, 'vacuum'));
      sizer.observe(pages, performance.now() - started);
      const after = free();
      // (Nothing moved: the pages are not free to SQLite any more, e.g. not in incremental mode.)
      if (after >= before) break;
      before = after;
    }
    if (committer) return;
    const [passive] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    if (passive.busy !== 0 || passive.log !== passive.checkpointed) return;
    // Everything is in the database file: resetting the WAL holds the lock only briefly, and a
    // busy server is not waited for (its own checkpointer truncates it later).
    const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
    sqlite.pragma('busy_timeout = 0');
    try {
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      sqlite.pragma(`busy_timeout = ${timeout}`);
    }
  };
}
