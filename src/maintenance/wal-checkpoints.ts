// When replay checkpoints the live file between its write transactions: once the file has grown
// by a WAL's worth of pages since the last checkpoint, not after every batch. A PASSIVE
// checkpoint never blocks the server's writes, but each one syncs the WAL and the file and
// writes back the pages every batch touches again (the b-tree's right edge and interior pages):
// one per batch was a third of the copy phase (5.4 s of a 200k-event replay).
import type Database from 'better-sqlite3';

/** Pages the live file may grow by between checkpoints (64 MiB of 4 KiB pages): the WAL's bound. */
export const CHECKPOINT_PAGES = 16_384;

export class WalCheckpoints {
  private grownFrom: number;

  constructor(
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
      () => live.pragma('page_count', { simple: true }) as number,
      () => live.pragma('wal_checkpoint(PASSIVE)'),
    );
  }
}
