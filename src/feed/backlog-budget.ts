// One memory budget for what every watch and feed stream has buffered but not yet sent. Each
// stream also has its own limit; this one bounds the sum, so that many slow readers together
// cannot grow the process without bound. Over budget, the streams holding the most are closed
// first: they resume from their last resourceVersion, which the log still has.
import { Injectable, Optional } from '@nestjs/common';
import { MetricsService } from '../observability/metrics.service';

export interface BudgetedStream {
  /** Bytes buffered now (the socket's writableLength). */
  backlog(): number;
  /** Closes the stream; it must call release() itself. */
  evict(): void;
}

/** Well under the 256 MB RSS target, with room for the database cache and requests. */
export const DEFAULT_TOTAL_BACKLOG_BYTES = 64 * 1024 * 1024;

@Injectable()
export class BacklogBudget {
  maxTotalBytes = DEFAULT_TOTAL_BACKLOG_BYTES;
  /** The last backlog each stream reported: an upper bound, since sockets drain in between. */
  private readonly reported = new Map<BudgetedStream, number>();
  private total = 0;
  evictions = 0;

  constructor(@Optional() metrics?: MetricsService) {
    if (metrics) metrics.backlogStats = () => ({ bytes: this.total, evictions: this.evictions });
  }

  /** The sum of the last reported backlogs (an upper bound of what is buffered). */
  get totalBytes(): number {
    return this.total;
  }

  /** Records a stream's backlog after it wrote; over budget, the fullest streams are closed. */
  track(stream: BudgetedStream, bytes: number): void {
    this.total += bytes - (this.reported.get(stream) ?? 0);
    this.reported.set(stream, bytes);
    if (this.total > this.maxTotalBytes) this.reclaim();
  }

  release(stream: BudgetedStream): void {
    this.total -= this.reported.get(stream) ?? 0;
    this.reported.delete(stream);
  }

  private reclaim(): void {
    // Reported numbers may be stale: read what each stream really holds before closing any.
    this.total = 0;
    for (const stream of this.reported.keys()) {
      const bytes = stream.backlog();
      this.reported.set(stream, bytes);
      this.total += bytes;
    }
    if (this.total <= this.maxTotalBytes) return;
    const fullestFirst = [...this.reported].sort((a, b) => b[1] - a[1]);
    for (const [stream] of fullestFirst) {
      if (this.total <= this.maxTotalBytes) return;
      this.evictions++;
      stream.evict();
      this.release(stream);
    }
  }
}
