// How k8s.io/apiserver's webhook clients (the TokenReview authenticator and the SubjectAccessReview
// authorizer a delegating server builds, pkg/util/webhook/webhook.go) call the cluster: a POST
// with the client's 10 s timeout (client-go adds it to the URL as ?timeout=10s), retried as
// WithExponentialBackoff with DefaultRetryBackoffWithInitialDelay(500ms): up to 5 tries, waits
// growing ×1.5 with 20 % jitter, and only when DefaultShouldRetry says the failure is transient
// (a reset connection, 500, 504 or 429, or a Status that asks to be retried later).
import type { ClusterClient } from './cluster-client';
import { ClusterHttpError } from './cluster-http-error';

export interface WebhookRequestOptions {
  /** Per try, as the client's Timeout. */
  timeoutMs?: number;
  /** Uniform in [0, 1): the jitter, injected where a test needs it fixed. */
  random?: () => number;
}

const TIMEOUT_MS = 10_000;
const BACKOFF = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/** The JSON answer; rejects with the last failure once no try is left or it is not worth another. */
export async function postWebhook(client: ClusterClient, path: string, body: unknown, options: WebhookRequestOptions = {}): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const random = options.random ?? Math.random;
  const url = `${path}?timeout=${timeoutMs / 1000}s`;
  let wait = BACKOFF.initialMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.postJson(url, body, { timeoutMs });
    } catch (error) {
      if (attempt >= BACKOFF.steps || !worthRetrying(error)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait * (1 + BACKOFF.jitter * random())));
    wait *= BACKOFF.factor;
  }
}

/** webhook.DefaultShouldRetry */
function worthRetrying(error: unknown): boolean {
  if (error instanceof ClusterHttpError) {
    return [500, 504, 429].includes(error.status) || error.statusObject?.retryAfterSeconds !== undefined;
  }
  return (error as NodeJS.ErrnoException).code === 'ECONNRESET';
}

/**
 * What client-go's error says, as a delegating server puts it in a 500 or a review's error: the
 * Status's message, a generic text for an answer without one, or the transport's failure.
 */
export function webhookErrorText(error: unknown, client: ClusterClient, path: string, resource: string, timeoutMs = TIMEOUT_MS): string {
  if (error instanceof ClusterHttpError) {
    return error.statusObject?.message ?? `an error on the server ("unknown") has prevented the request from succeeding (post ${resource})`;
  }
  return `Post "${client.connection.server}${path}?timeout=${timeoutMs / 1000}s": ${(error as Error).message}`;
}
