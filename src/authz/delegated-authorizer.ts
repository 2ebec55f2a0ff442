// --authorization-kubeconfig: what svctrail's own authorizers do not allow is asked of the
// cluster with a SubjectAccessReview, as k8s.io/apiserver's delegating authorizer asks
// (plugin/pkg/authorizer/webhook): the user (name, uid, groups, extra) and the request's
// attributes (namespace, verb, group, version, resource, subresource, name; or path and verb).
// Answers are kept in an LRU keyed by the review's spec, 10 s when allowed and 10 s when not
// (--authorization-webhook-cache-authorized-ttl / -unauthorized-ttl), unless the attributes are
// too long to be worth keeping; a review that failed is never kept and is no opinion with an
// error, which the union turns into a 500, never an allow.
import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { UserInfo } from '../auth/user-info';
import type { ClusterClient } from '../cluster/cluster-client';
import { postWebhook, webhookErrorText } from '../cluster/webhook-request';
import type { DelegatedAuthorizer, DelegatedDecision } from './authorizer';
import type { RequestAttributes } from './request-attributes';

const PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
/** webhook.go: cache.NewLRUExpireCache(8192). */
const MAX_ENTRIES = 8192;
/** maxControlledAttrCacheSize: requester-controlled attributes this long are not kept (a DoS). */
const MAX_CACHED_ATTRIBUTES = 10_000;

interface SubjectAccessReviewStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
}

export interface DelegatedAuthorizerTtls {
  allowedMs: number;
  deniedMs: number;
}

export class SubjectAccessReviewAuthorizer implements DelegatedAuthorizer {
  private readonly logger = new Logger('DelegatedAuthorization');
  private readonly cache = new LRUCache<string, SubjectAccessReviewStatus>({ max: MAX_ENTRIES });

  constructor(
    private readonly client: ClusterClient,
    private readonly ttls: DelegatedAuthorizerTtls,
  ) {}

  async authorize(user: UserInfo, attributes: RequestAttributes): Promise<DelegatedDecision> {
    const spec = reviewSpec(user, attributes);
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (!status) {
      const body = { kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec, status: { allowed: false } };
      try {
        status = ((await postWebhook(this.client, PATH, body)) as { status?: SubjectAccessReviewStatus })?.status ?? {};
      } catch (error) {
        const text = webhookErrorText(error, this.client, PATH, 'subjectaccessreviews.authorization.k8s.io');
        this.logger.error(`Failed to make webhook authorizer request: ${text}`);
        return { decision: 'no-opinion', reason: '', error: text };
      }
      const ttl = status.allowed ? this.ttls.allowedMs : this.ttls.deniedMs;
      if (ttl > 0 && controlledLength(attributes) < MAX_CACHED_ATTRIBUTES) this.cache.set(key, status, { ttl });
    }
    const reason = status.reason ?? '';
    if (status.allowed && status.denied) return { decision: 'deny', reason, error: 'webhook subject access review returned both allow and deny response' };
    if (status.denied) return { decision: 'deny', reason };
    if (status.allowed) return { decision: 'allow', reason };
    return { decision: 'no-opinion', reason };
  }
}

/** The review's spec as webhook.Authorize builds it; Go's omitempty leaves empty fields out. */
function reviewSpec(user: UserInfo, attributes: RequestAttributes): Record<string, unknown> {
  const attributeFields = attributes.isResourceRequest
    ? {
        resourceAttributes: present({
          namespace: attributes.namespace,
          verb: attributes.verb,
          group: attributes.apiGroup,
          version: attributes.apiVersion,
          resource: attributes.resource,
          subresource: attributes.subresource,
          name: attributes.name,
        }),
      }
    : { nonResourceAttributes: present({ path: attributes.path, verb: attributes.verb }) };
  return {
    ...attributeFields,
    ...(user.name ? { user: user.name } : {}),
    ...(user.groups.length > 0 ? { groups: user.groups } : {}),
    ...(user.extra && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
    ...(user.uid ? { uid: user.uid } : {}),
  };
}

function present(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
}

/** shouldCache's sum of the requester-controlled attributes' lengths. */
function controlledLength(a: RequestAttributes): number {
  return [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path].reduce((sum, part) => sum + part.length, 0);
}
