// The non-resource access kube-apiserver grants through its bootstrap RBAC roles
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): system:public-info-viewer, bound to
// system:authenticated and system:unauthenticated, and system:discovery, bound to
// system:authenticated. Both allow the verb "get" only.
import { ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, type UserInfo } from '../auth/user-info';
import type { RequestAttributes } from './request-attributes';

export const PUBLIC_INFO_URLS: readonly string[] = ['/livez', '/readyz', '/healthz', '/version', '/version/'];
export const DISCOVERY_URLS: readonly string[] = [...PUBLIC_INFO_URLS, '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'];

export function bootstrapRolesAllow(user: UserInfo, attributes: RequestAttributes): boolean {
  if (attributes.isResourceRequest || attributes.verb !== 'get') return false;
  const urls = user.groups.includes(ALL_AUTHENTICATED_GROUP)
    ? DISCOVERY_URLS
    : user.groups.includes(ALL_UNAUTHENTICATED_GROUP)
      ? PUBLIC_INFO_URLS
      : [];
  return urls.some((url) => nonResourceUrlMatches(url, attributes.path));
}

/** rbac NonResourceURLMatches: "*", exact, or a trailing-"*" prefix. */
function nonResourceUrlMatches(rule: string, path: string): boolean {
  if (rule === '*' || rule === path) return true;
  return rule.endsWith('*') && path.startsWith(rule.slice(0, -1));
}
