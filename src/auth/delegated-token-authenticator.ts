// --authentication-kubeconfig: a bearer token svctrail does not know itself is asked of the
// cluster with a TokenReview, as k8s.io/apiserver's delegating authenticator asks
// (plugin/pkg/authenticator/token/webhook, wrapped in token/cache by authenticatorfactory): the
// answer, authenticated or not, is kept 10 s (--authentication-token-webhook-cache-ttl), keyed by
// a hash of the token and the audiences asked (the token itself is never kept); a review that
// failed, or that refused with an error, is not kept; concurrent requests with one token share one
// review. svctrail asks for no audiences of its own (its delegating options set none), so the
// cluster judges them against its own (kube-apiserver's --api-audiences).
import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { ClusterClient } from '../cluster/cluster-client';
import { postWebhook, webhookErrorText } from '../cluster/webhook-request';
import type { TokenAuthentication, TokenAuthenticator } from './request-authenticator';
import type { UserInfo } from './user-info';

const PATH = '/apis/authentication.k8s.io/v1/tokenreviews';
/** token/cache's striped cache: 32 stripes of 4096 entries. */
const MAX_ENTRIES = 32 * 4096;

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

export class DelegatedTokenAuthenticator implements TokenAuthenticator {
  private readonly logger = new Logger('DelegatedAuthentication');
  private readonly cache: LRUCache<string, TokenAuthentication>;
  private readonly inFlight = new Map<string, Promise<TokenAuthentication>>();

  constructor(
    private readonly client: ClusterClient,
    /** 0: nothing is kept. */
    private readonly ttlMs: number,
  ) {
    this.cache = new LRUCache({ max: MAX_ENTRIES, ttl: Math.max(ttlMs, 1) });
  }

  authenticateToken(token: string, audiences: readonly string[]): Promise<TokenAuthentication> {
    const key = cacheKey(token, audiences);
    const cached = this.cache.get(key);
    if (cached) return Promise.resolve(cached);
    let review = this.inFlight.get(key);
    if (!review) {
      review = this.review(token, audiences).then((answer) => {
        // cache.New(..., cacheErrs=false, ttl, ttl): an answer is kept, an error never.
        if (answer.error === undefined && this.ttlMs > 0) this.cache.set(key, answer);
        return answer;
      });
      const done = () => this.inFlight.delete(key);
      review.then(done, done);
      this.inFlight.set(key, review);
    }
    return review;
  }

  /** WebhookTokenAuthenticator.AuthenticateToken, with audiences checked as there. */
  private async review(token: string, audiences: readonly string[]): Promise<TokenAuthentication> {
    const body = { kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { token, ...(audiences.length > 0 ? { audiences } : {}) }, status: {} };
    let answer: { status?: TokenReviewStatus };
    try {
      answer = (await postWebhook(this.client, PATH, body)) as { status?: TokenReviewStatus };
    } catch (error) {
      const text = webhookErrorText(error, this.client, PATH, 'tokenreviews.authentication.k8s.io');
      this.logger.error(`Failed to make webhook authenticator request: ${text}`);
      return { error: text };
    }
    const status = answer?.status ?? {};
    let good: string[] | undefined;
    if (audiences.length > 0) {
      // svctrail's own (implicit) audiences are none: only those the cluster vouches for count.
      good = audiences.filter((a) => (status.audiences ?? []).includes(a));
      if (good.length === 0) return {};
    }
    if (!status.authenticated) return status.error ? { error: status.error } : {};
    const user: UserInfo = { name: status.user?.username ?? '', groups: [...(status.user?.groups ?? [])] };
    if (status.user?.uid) user.uid = status.user.uid;
    if (status.user?.extra && Object.keys(status.user.extra).length > 0) user.extra = status.user.extra;
    return { user, ...(good ? { audiences: good } : {}) };
  }
}

/** Length-prefixed token and audiences, hashed: no two inputs share a key, and no token is kept. */
function cacheKey(token: string, audiences: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of [token, ...audiences]) hash.update(`${Buffer.byteLength(part)}:${part}`);
  hash.update(`#${audiences.length}`);
  return hash.digest('base64');
}
