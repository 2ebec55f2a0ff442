// Rows per transaction for replay's batched copies and deletes, adjusted after each one so that it
// holds the write lock about TARGET_MS, whatever the size of the rows and the load of the machine.
// After each one the lock is left free min(held, 100) + 10 ms (lock-clock.ts): at 40 ms a batch
// spent more time paused than copying (4.4 s of sleep against 2.6 s of copying in a 200k-event
// replay); at 100 ms a waiting writer still gets in after each batch, and replay keeps the lock
// about half the time. Index builds already hold it longer (hundreds of ms each).
const TARGET_MS = 100;
const MIN_ROWS = 100;
const MAX_ROWS = 50000;

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
