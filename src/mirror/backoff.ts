// Exponential backoff with full jitter (client-go's reflector backs off 800 ms → 30 s): every
// failure waits, so a source that keeps failing is never asked in a busy loop, and mirrors that
// lost one source together do not come back in step.
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Uniform in [0, 1): injected so the schedule is testable. */
  random: () => number;
}

export class Backoff {
  private attempt = 0;

  constructor(private readonly options: BackoffOptions) {}

  /** The wait before the next try: half the current step plus a random part of the other half. */
  next(): number {
    const step = Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(step / 2 + (step / 2) * this.options.random());
  }

  /** After a success: the next failure starts from the initial wait again. */
  reset(): void {
    this.attempt = 0;
  }
}
