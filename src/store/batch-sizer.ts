// Sizes a maintenance job's batches by time, not count: beside a running server every write waits
// at most one of the job's transactions, and how long a batch of a given size holds the lock
// varies by orders of magnitude (a revision's rows, a page deep in an index, a cold cache, a disk
// flushing other work). Each batch is sized from the rate the previous ones ran at, so one holds
// the lock about `targetMs`, and grows at most twofold per step so that a fast start cannot
// overshoot into a long hold.
export class BatchSizer {
  private size: number;

  constructor(
    first: number,
    private readonly targetMs: number,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.size = first;
  }

  /** The size of the next batch. */
  get next(): number {
    return this.size;
  }

  /** A batch of `count` items took `ms`. */
  observe(count: number, ms: number): void {
    if (count <= 0) return;
    const fitting = ms > 0 ? Math.floor((count * this.targetMs) / ms) : this.max;
    this.size = Math.max(this.min, Math.min(this.max, fitting, this.size * 2));
  }
}
