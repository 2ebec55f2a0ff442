// svctrail's whole authorizer, as k8s.io/apiserver's union authorizer runs its members
// (pkg/authorization/union): svctrail's own chain first (system:masters, the bootstrap roles, the
// ABAC policy: request-authorizer.ts), then, with --authorization-kubeconfig, the cluster's
// answer to a SubjectAccessReview. The first allow or deny wins; otherwise no opinion, with the
// members' reasons joined by newlines and their errors kept. An error never allows: a request is
// then answered 500, a review reports it in status.evaluationError. Every request, review and
// impersonation check goes through this one object.
import type { UserInfo } from '../auth/user-info';
import type { AbacPolicy } from './abac-policy';
import type { RequestAttributes } from './request-attributes';
import { authorize } from './request-authorizer';
import { rulesFor } from './rule-resolver';
import type { RulesForResult } from './rule-info';

/** What a delegated authorizer (the cluster's SubjectAccessReview) decided. */
export interface DelegatedDecision {
  decision: 'allow' | 'deny' | 'no-opinion';
  reason: string;
  /** The review could not be had (or its answer makes no sense): never an allow. */
  error?: string;
}

export interface DelegatedAuthorizer {
  authorize(user: UserInfo, attributes: RequestAttributes): Promise<DelegatedDecision>;
}

export interface AuthorizerDecision {
  allowed: boolean;
  /** An authorizer denied outright (only a delegated one can). */
  denied: boolean;
  /** Why, for logs: which authorizer allowed, or "No policy matched.". */
  reason: string;
  /** The union's reason, as a SubjectAccessReview reports it. */
  reviewReason: string;
  /** The delegated authorizer's own reason, which a 403 appends (svctrail's ABAC reason is left out of it, as RBAC's is empty). */
  forbiddenReason: string;
  /** Why the decision could not be made; with it `allowed` is false. */
  error?: string;
}

/**
 * k8s.io/apiserver's DelegatingAuthorizationOptions.AlwaysAllowPaths: the kubelet's probes are
 * never sent to the cluster, whatever the verb. Exact paths: /healthz/ping is not among them.
 */
const ALWAYS_ALLOW_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/livez']);

/** webhook.RulesFor: the cluster's rules cannot be listed, so a rules review is incomplete. */
const DELEGATED_RULES_ERROR = 'webhook authorizer does not support user rule resolution';

export class Authorizer {
  constructor(
    readonly policy: AbacPolicy,
    private readonly delegate?: DelegatedAuthorizer,
  ) {}

  /** Whether `user` may do what `attributes` describe. Never rejects: a failure is `error`. */
  async authorize(user: UserInfo, attributes: RequestAttributes): Promise<AuthorizerDecision> {
    const local = authorize(this.policy, user, attributes);
    if (local.allowed || !this.delegate) return { ...local, denied: false, forbiddenReason: '' };
    if (!attributes.isResourceRequest && ALWAYS_ALLOW_PATHS.has(attributes.path)) {
      return { allowed: true, denied: false, reason: 'always-allowed path', reviewReason: '', forbiddenReason: '' };
    }
    const remote = await this.delegate.authorize(user, attributes);
    if (remote.decision !== 'no-opinion') {
      const allowed = remote.decision === 'allow';
      return {
        allowed,
        denied: !allowed,
        reason: `${allowed ? 'allowed' : 'denied'} by the cluster's SubjectAccessReview`,
        reviewReason: remote.reason,
        forbiddenReason: remote.reason,
        ...(remote.error !== undefined ? { error: remote.error } : {}),
      };
    }
    return {
      allowed: false,
      denied: false,
      reason: remote.error !== undefined ? `the cluster's SubjectAccessReview failed: ${remote.error}` : local.reason,
      reviewReason: [local.reviewReason, remote.reason].filter((r) => r !== '').join('\n'),
      forbiddenReason: remote.reason,
      ...(remote.error !== undefined ? { error: remote.error } : {}),
    };
  }

  /** The union rule resolver: a delegated authorizer lists nothing and leaves the answer incomplete. */
  rulesFor(user: UserInfo, namespace: string): RulesForResult & { evaluationError?: string } {
    const rules = rulesFor(this.policy, user, namespace);
    if (!this.delegate) return rules;
    return { ...rules, incomplete: true, evaluationError: DELEGATED_RULES_ERROR };
  }
}
