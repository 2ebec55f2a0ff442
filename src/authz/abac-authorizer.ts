// ABAC policy matching, as pkg/auth/authorizer/abac PolicyList.Authorize: the first rule whose
// subject, verb and resource (or non-resource path) all match allows; otherwise no opinion.
import type { UserInfo } from '../auth/user-info';
import type { AbacPolicy, PolicyRule } from './abac-policy';
import type { RequestAttributes } from './request-attributes';

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

/** The rule that allows the request, or undefined ("No policy matched."). */
export function matchingRule(policy: AbacPolicy, user: UserInfo, attributes: RequestAttributes): PolicyRule | undefined {
  return policy.rules.find((rule) => matches(rule, user, attributes));
}

function matches(rule: PolicyRule, user: UserInfo, attributes: RequestAttributes): boolean {
  if (!subjectMatches(rule, user) || !verbMatches(rule, attributes)) return false;
  // Resource and non-resource requests are mutually exclusive: at most one can match.
  return resourceMatches(rule, attributes) || nonResourceMatches(rule, attributes);
}

/** subjectMatches: a named user and a named group must both match when both are given. */
export function subjectMatches(rule: PolicyRule, user: UserInfo): boolean {
  let matched = false;
  if (rule.user !== '') {
    if (rule.user !== '*' && rule.user !== user.name) return false;
    matched = true;
  }
  if (rule.group !== '') {
    if (rule.group !== '*' && !user.groups.includes(rule.group)) return false;
    matched = true;
  }
  return matched;
}

/** verbMatches: read-only requests match every rule; others only rules without readonly. */
function verbMatches(rule: PolicyRule, attributes: RequestAttributes): boolean {
  return READ_ONLY_VERBS.has(attributes.verb) || !rule.readonly;
}

function resourceMatches(rule: PolicyRule, attributes: RequestAttributes): boolean {
  if (!attributes.isResourceRequest) return false;
  return (rule.namespace === '*' || rule.namespace === attributes.namespace) && resourceNameMatches(rule.resource, attributes) && (rule.apiGroup === '*' || rule.apiGroup === attributes.apiGroup);
}

/**
 * Upstream ABAC compares the resource only, so `services` also covers `services/status`.
 * svctrail adds `resource/subresource` (RBAC's spelling), which covers that subresource only.
 */
function resourceNameMatches(resource: string, attributes: RequestAttributes): boolean {
  if (resource === '*' || resource === attributes.resource) return true;
  return attributes.subresource !== '' && resource === `${attributes.resource}/${attributes.subresource}`;
}

/** nonResourceMatches: "*", the exact path, or a prefix given as "<prefix>*". */
function nonResourceMatches(rule: PolicyRule, attributes: RequestAttributes): boolean {
  if (attributes.isResourceRequest) return false;
  const path = rule.nonResourcePath;
  if (path === '*' || path === attributes.path) return true;
  return path.endsWith('*') && attributes.path.startsWith(path.replace(/\*+$/, ''));
}
