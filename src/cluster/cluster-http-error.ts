// A non-2xx answer of an API server svctrail is a client of, with the Kubernetes Status it sent
// when it sent one.
export interface ClusterStatus {
  code?: number;
  reason?: string;
  message?: string;
  /** details.retryAfterSeconds: the server asks to be asked again later (apierrors.SuggestsClientDelay). */
  retryAfterSeconds?: number;
}

export interface ClusterRequest {
  method?: string;
  /** Names the cluster: "the source", "the cluster". */
  who?: string;
  /** The Retry-After header, when the answer had one. */
  retryAfter?: string | undefined;
}

export class ClusterHttpError extends Error {
  readonly method: string;
  /** The answer carried a Retry-After header. */
  readonly retryAfter: boolean;

  constructor(
    readonly status: number,
    readonly path: string,
    readonly statusObject?: ClusterStatus,
    request: ClusterRequest = {},
  ) {
    const method = request.method ?? 'GET';
    super(`${request.who ?? 'the cluster'} answered ${status}${statusObject?.reason ? ` ${statusObject.reason}` : ''} to ${method} ${path}${statusObject?.message ? `: ${statusObject.message}` : ''}`);
    this.method = method;
    this.retryAfter = request.retryAfter !== undefined;
  }

  /** From an answer's status code and body text (a Status when it parses as one). */
  static from(status: number, path: string, body: string, request: ClusterRequest = {}): ClusterHttpError {
    let statusObject: ClusterStatus | undefined;
    try {
      const parsed = JSON.parse(body) as { kind?: string; details?: { retryAfterSeconds?: number } } & ClusterStatus;
      if (parsed?.kind === 'Status') {
        statusObject = { code: parsed.code, reason: parsed.reason, message: parsed.message };
        if (typeof parsed.details?.retryAfterSeconds === 'number') statusObject.retryAfterSeconds = parsed.details.retryAfterSeconds;
      }
    } catch {
      // Not JSON (a proxy's HTML page): the code alone says what happened.
    }
    return new ClusterHttpError(status, path, statusObject, request);
  }
}
