// Ends whatever stage a request to the cluster is in — the request before its answer, then the
// answer's body — with one error, when the caller's signal aborts or a timer runs out. Destroying
// the request or the answer destroys its socket, so nothing lingers on a stalled connection.
import { ClusterTimeoutError } from './cluster-timeout-error';

interface Destroyable {
  destroy(error?: Error): unknown;
}

export class RequestCutoff {
  private target?: Destroyable;
  private timer?: NodeJS.Timeout;
  private reason?: Error;

  constructor(private readonly signal?: AbortSignal) {
    if (signal?.aborted) this.reason = abortError();
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Why it was cut, once it was. */
  get failure(): Error | undefined {
    return this.reason;
  }

  /** The stage to end from now on (cut at once when already cut). */
  attach(target: Destroyable): void {
    this.target = target;
    if (this.reason) target.destroy(this.reason);
  }

  /** Cut with a ClusterTimeoutError unless disarmed or re-armed within `ms`. */
  arm(ms: number, message: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.cut(new ClusterTimeoutError(message, ms)), ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disarm();
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private cut(error: Error): void {
    this.reason ??= error;
    this.target?.destroy(this.reason);
  }

  private readonly onAbort = () => this.cut(abortError());
}

function abortError(): Error {
  const error = new Error('the request to the cluster was aborted');
  error.name = 'AbortError';
  return error;
}
