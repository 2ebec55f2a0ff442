// Where the change feed shows each finished compaction: right after the newest write recorded
// when the compaction began (the log's head as it started). Derived from what is stored, so every
// reader of the feed, catching up or live, sees a compaction at the same place; a compaction's
// place never changes, so it is computed once per process.
import type { Compaction, HistoryCompactor } from '../store/ports/history-compaction';
import type { ServiceReads } from '../store/ports/service-read-store';

export interface PlacedCompaction {
  compaction: Compaction;
  /** The resourceVersion of the write it follows in the feed. */
  after: number;
}

export class CompactionPlacements {
  private readonly placed = new Map<number, number>();

  constructor(
    private readonly compactor: Pick<HistoryCompactor, 'list'>,
    private readonly reads: Pick<ServiceReads, 'resourceVersionAt'>,
  ) {}

  /** Every finished compaction with its place, oldest first. */
  async finished(): Promise<PlacedCompaction[]> {
    const out: PlacedCompaction[] = [];
    for (const compaction of await this.compactor.list()) {
      if (!compaction.finishedAt) continue;
      let after = this.placed.get(compaction.id);
      if (after === undefined) this.placed.set(compaction.id, (after = await this.reads.resourceVersionAt(compaction.startedAt)));
      out.push({ compaction, after });
    }
    return out;
  }
}
