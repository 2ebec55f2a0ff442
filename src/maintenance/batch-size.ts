// Rows per transaction for replay's batched copies and deletes, adjusted after each one so that it
// holds the write lock about TARGET_MS, whatever the size of the rows and the load of the machine.
const TARGET_MS = 40;
const MIN_ROWS = 100;
const MAX_ROWS = 20000;

export class BatchSize {
  constructor(private size = 1000) {}

  get rows(): number {
    return this.size;
  }

  /** The last batch held the lock `heldMs`. */
  adjust(heldMs: number): void {
    if (heldMs > 2 * TARGET_MS) this.size = Math.max(MIN_ROWS, Math.floor(this.size / 2));
    else if (heldMs < TARGET_MS / 2) this.size = Math.min(MAX_ROWS, this.size * 2);
  }
}
