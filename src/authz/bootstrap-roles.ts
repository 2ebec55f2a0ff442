// The access kube-apiserver grants through its bootstrap RBAC roles
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy) that svctrail keeps: system:public-info-viewer,
// bound to system:authenticated and system:unauthenticated, and system:discovery, bound to
// system:authenticated (both allow the verb "get" on a few paths only), and cluster-admin, bound
// to system:masters (everything; the privileged-groups authorizer decides for those first, but
// RBAC's rule resolver still lists the role for `kubectl auth can-i --list`).
import { ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, SYSTEM_MASTERS_GROUP, type UserInfo } from '../auth/user-info';
import type { RequestAttributes } from './request-attributes';
import type { NonResourceRuleInfo, ResourceRuleInfo } from './rule-info';

export const PUBLIC_INFO_URLS: readonly string[] = ['/livez', '/readyz', '/healthz', '/version', '/version/'];
export const DISCOVERY_URLS: readonly string[] = [...PUBLIC_INFO_URLS, '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'];

/** A ClusterRoleBinding of one ClusterRole to one group. */
export interface BootstrapBinding {
  name: string;
  group: string;
  resourceRules: readonly ResourceRuleInfo[];
  nonResourceRules: readonly NonResourceRuleInfo[];
}

// In name order, the order RBAC visits them here.
const BINDINGS: readonly BootstrapBinding[] = [
  {
    name: 'cluster-admin',
    group: SYSTEM_MASTERS_GROUP,
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  },
  { name: 'system:discovery', group: ALL_AUTHENTICATED_GROUP, resourceRules: [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [...DISCOVERY_URLS] }] },
  {
    name: 'system:public-info-viewer',
    group: ALL_AUTHENTICATED_GROUP,
    resourceRules: [],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [...PUBLIC_INFO_URLS] }],
  },
  {
    name: 'system:public-info-viewer',
    group: ALL_UNAUTHENTICATED_GROUP,
    resourceRules: [],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [...PUBLIC_INFO_URLS] }],
  },
];

/** The bindings that apply to the user, in visiting order. */
function bindingsOf(user: UserInfo): BootstrapBinding[] {
  return BINDINGS.filter((b) => user.groups.includes(b.group));
}

/**
 * The first non-resource binding that allows the request. cluster-admin is left out: svctrail's
 * privileged-groups authorizer answers for system:masters before RBAC is asked.
 */
export function bootstrapBindingFor(user: UserInfo, attributes: RequestAttributes): BootstrapBinding | undefined {
  if (attributes.isResourceRequest) return undefined;
  return bindingsOf(user).find(
    (b) =>
      b.group !== SYSTEM_MASTERS_GROUP &&
      b.nonResourceRules.some((rule) => rule.verbs.some((v) => v === '*' || v === attributes.verb) && rule.nonResourceURLs.some((url) => nonResourceUrlMatches(url, attributes.path))),
  );
}

/** rbac's clusterRoleBindingDescriber: `ClusterRoleBinding "x" of ClusterRole "x" to Group "g"`. */
export function describeBinding(binding: BootstrapBinding): string {
  return `ClusterRoleBinding ${JSON.stringify(binding.name)} of ClusterRole ${JSON.stringify(binding.name)} to Group ${JSON.stringify(binding.group)}`;
}

/** RBAC's RulesFor over the bootstrap bindings (cluster-scoped roles apply in every namespace). */
export function bootstrapRulesFor(user: UserInfo): { resourceRules: ResourceRuleInfo[]; nonResourceRules: NonResourceRuleInfo[] } {
  const bindings = bindingsOf(user);
  return {
    resourceRules: bindings.flatMap((b) => b.resourceRules.map((r) => ({ ...r, verbs: [...r.verbs], apiGroups: [...r.apiGroups], resources: [...r.resources] }))),
    nonResourceRules: bindings.flatMap((b) => b.nonResourceRules.map((r) => ({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] }))),
  };
}

/** rbac NonResourceURLMatches: "*", exact, or a trailing-"*" prefix. */
function nonResourceUrlMatches(rule: string, path: string): boolean {
  if (rule === '*' || rule === path) return true;
  return rule.endsWith('*') && path.startsWith(rule.slice(0, -1));
}
