// ABAC's rule resolver (pkg/auth/authorizer/abac PolicyList.RulesFor), quirks included: every
// line whose subject matches and whose namespace is "*" or exactly the asked one is reported,
// whatever it would match in practice:
//   - verbs are get/list/watch for readonly lines and "*" otherwise (readonly lines still allow
//     every read of anything, which is not what the rule says);
//   - a line's resource and nonResourcePath each become a rule, the API group copied verbatim;
//   - a line with namespace "" (cluster-scoped requests only) is never listed, since the review
//     needs a namespace, and neither are its non-resource paths;
//   - resource names and `incomplete` are never set.
import type { UserInfo } from '../auth/user-info';
import { subjectMatches } from './abac-authorizer';
import type { AbacPolicy } from './abac-policy';
import type { RulesForResult } from './rule-info';

export function abacRulesFor(policy: AbacPolicy, user: UserInfo, namespace: string): RulesForResult {
  const result: RulesForResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
  for (const rule of policy.rules) {
    if (!subjectMatches(rule, user)) continue;
    if (rule.namespace !== '*' && rule.namespace !== namespace) continue;
    const verbs = rule.readonly ? ['get', 'list', 'watch'] : ['*'];
    if (rule.resource !== '') result.resourceRules.push({ verbs: [...verbs], apiGroups: [rule.apiGroup], resources: [rule.resource] });
    if (rule.nonResourcePath !== '') result.nonResourceRules.push({ verbs: [...verbs], nonResourceURLs: [rule.nonResourcePath] });
  }
  return result;
}
