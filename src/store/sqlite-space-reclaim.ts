// Gives the pages a compaction freed back to the file system: the database is in
// auto_vacuum = INCREMENTAL (database.ts), so `incremental_vacuum` moves pages from the end of
// the file into free ones and truncates it, a bounded number per transaction so that no write
// waits long; then the WAL that recorded it is truncated (a command's own connection only: in
// the server the WAL checkpointer does that on its schedule).
import type { DatabaseHandle } from './database';
import type { GroupCommitter } from './group-commit';

/** Pages moved per transaction (4 KiB each). */
const PAGES_PER_STEP = 2048;

export function sqliteSpaceReclaim(handle: Pick<DatabaseHandle, 'sqlite'>, committer?: GroupCommitter): () => Promise<void> {
  const sqlite = handle.sqlite;
  const free = () => sqlite.pragma('freelist_count', { simple: true }) as number;
  const step = () => sqlite.pragma(`incremental_vacuum(${PAGES_PER_STEP})`);
  return async () => {
    for (let before = free(); before > 0;) {
      if (committer) await committer.run(step);
      else step();
      const after = free();
      // (Nothing moved: the pages are not free to SQLite any more, e.g. not in incremental mode.)
      if (after >= before) break;
      before = after;
    }
    if (!committer) sqlite.pragma('wal_checkpoint(TRUNCATE)');
  };
}
