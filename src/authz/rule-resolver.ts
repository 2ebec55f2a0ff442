// The union rule resolver behind SelfSubjectRulesReview, in the authorizer chain's order: RBAC's
// bootstrap roles, then the ABAC policy (the privileged-groups authorizer resolves no rules;
// system:masters' rules come from RBAC's cluster-admin binding, as in kube-apiserver).
import type { UserInfo } from '../auth/user-info';
import { abacRulesFor } from './abac-rule-resolver';
import type { AbacPolicy } from './abac-policy';
import { bootstrapRulesFor } from './bootstrap-roles';
import type { RulesForResult } from './rule-info';

export function rulesFor(policy: AbacPolicy, user: UserInfo, namespace: string): RulesForResult {
  const rbac = bootstrapRulesFor(user);
  const abac = abacRulesFor(policy, user, namespace);
  return {
    resourceRules: [...rbac.resourceRules, ...abac.resourceRules],
    nonResourceRules: [...rbac.nonResourceRules, ...abac.nonResourceRules],
    incomplete: abac.incomplete,
  };
}
