// When replay checkpoints the live file between its write transactions: once the pages in use
// (page_count - freelist_count: a file that a replay ran on before keeps the pages it freed, and
// the shadow tables reuse them without growing it) rose by a WAL's worth since the last
// checkpoint, not after every batch. A PASSIVE
// checkpoint never blocks the server's writes, but each one syncs the WAL and the file and
// writes back the pages every batch touches again (the b-tree's right edge and interior pages):
// one per batch was a third of the copy phase (5.4 s of a 200k-event replay).
import type Database from 'better-sqlite3';

/** Pages in use the live file may gain between checkpoints (64 MiB of 4 KiB pages): the WAL's bound. */
export const CHECKPOINT_PAGES = 16_384;

export class WalCheckpoints {
  private grownFrom: number;

  constructor(
    /** Pages in use now. */
    private readonly pageCount: () => number,
    private readonly checkpoint: () => void,
    private readonly everyPages = CHECKPOINT_PAGES,
  ) {
    this.grownFrom = pageCount();
  }

  /** Between transactions: checkpoints if the file grew by `everyPages` since the last one. */
  maybe(): void {
    if (this.pageCount() - this.grownFrom >= this.everyPages) this.now();
  }

  /** Between phases (and at the end): the WAL is copied back whatever its size. */
  now(): void {
    this.checkpoint();
    this.grownFrom = this.pageCount();
  }

  static of(live: Database.Database): WalCheckpoints {
    return new WalCheckpoints(
      () => pagesInUse(live),
      () => live.pragma('wal_checkpoint(PASSIVE)'),
    );
  }
}

/** Pages of the main database that hold something (what a write adds to and the WAL receives). */
export function pagesInUse(sqlite: Database.Database): number {
  return (sqlite.pragma('page_count', { simple: true }) as number) - (sqlite.pragma('freelist_count', { simple: true }) as number);
}
