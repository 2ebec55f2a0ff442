// The authorizer chain svctrail runs for every request, in kube-apiserver's union order: the
// privileged system:masters group (authorizerfactory's privileged-groups authorizer), then the
// bootstrap RBAC roles for health and discovery paths, then the ABAC policy file. Any allow wins;
// no authorizer ever denies outright.
import { SYSTEM_MASTERS_GROUP, type UserInfo } from '../auth/user-info';
import { matchingRule } from './abac-authorizer';
import type { AbacPolicy } from './abac-policy';
import { bootstrapRolesAllow } from './bootstrap-roles';
import type { RequestAttributes } from './request-attributes';

export interface AuthorizationDecision {
  allowed: boolean;
  /** Why, for logs: which authorizer allowed, or "No policy matched.". */
  reason: string;
}

export function authorize(policy: AbacPolicy, user: UserInfo, attributes: RequestAttributes): AuthorizationDecision {
  if (user.groups.includes(SYSTEM_MASTERS_GROUP)) return { allowed: true, reason: `member of ${SYSTEM_MASTERS_GROUP}` };
  if (bootstrapRolesAllow(user, attributes)) return { allowed: true, reason: 'bootstrap role' };
  const rule = matchingRule(policy, user, attributes);
  if (rule) return { allowed: true, reason: `${policy.source} line ${rule.line}` };
  return { allowed: false, reason: 'No policy matched.' };
}
