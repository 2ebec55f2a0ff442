// The authorizer chain svctrail runs for every request, in kube-apiserver's union order: the
// privileged system:masters group (authorizerfactory's privileged-groups authorizer), then the
// bootstrap RBAC roles for health and discovery paths, then the ABAC policy file. Any allow wins;
// no authorizer ever denies outright.
import { SYSTEM_MASTERS_GROUP, type UserInfo } from '../auth/user-info';
import { matchingRule } from './abac-authorizer';
import type { AbacPolicy } from './abac-policy';
import { bootstrapBindingFor, describeBinding } from './bootstrap-roles';
import type { RequestAttributes } from './request-attributes';

export interface AuthorizationDecision {
  allowed: boolean;
  /** Why, for logs: which authorizer allowed, or "No policy matched.". */
  reason: string;
  /**
   * The reason the union authorizer itself returns, as a SubjectAccessReview reports it: "" from
   * the privileged-groups and ABAC allows, RBAC's "allowed by …" text, ABAC's "No policy matched.".
   */
  reviewReason: string;
}

export function authorize(policy: AbacPolicy, user: UserInfo, attributes: RequestAttributes): AuthorizationDecision {
  if (user.groups.includes(SYSTEM_MASTERS_GROUP)) return { allowed: true, reason: `member of ${SYSTEM_MASTERS_GROUP}`, reviewReason: '' };
  const binding = bootstrapBindingFor(user, attributes);
  if (binding) return { allowed: true, reason: 'bootstrap role', reviewReason: `RBAC: allowed by ${describeBinding(binding)}` };
  const rule = matchingRule(policy, user, attributes);
  if (rule) return { allowed: true, reason: `${policy.source} line ${rule.line}`, reviewReason: '' };
  return { allowed: false, reason: 'No policy matched.', reviewReason: 'No policy matched.' };
}
