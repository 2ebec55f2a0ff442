// The watch paths kube-apiserver has deprecated since 1.11 but still serves, for every resource
// that can be watched (k8s.io/apiserver pkg/endpoints/installer.go, the WATCHLIST and WATCH
// actions): `{prefix}/watch/namespaces/{ns}/{resource}[/{name}]` and `{prefix}/watch/{resource}`
// for namespaced resources, `{prefix}/watch/{resource}[/{name}]` for cluster-scoped ones, with
// `{prefix}` `/api/v1` or `/apis/{group}/{version}`. Both are ListResource with forceWatch
// (handlers/get.go): the list path's watch, whatever `?watch=` says, and a name in the path is a
// `metadata.name=` field selector.
//
// svctrail rewrites such a GET to its list path before routing (Fastify's rewriteUrl), for any
// resource discovery lists with the watch verb, so no resource has code of its own for them. The
// authorizer reads the URL as sent (RequestInfo: verb "watch", the name from the path); the list
// handlers read what the path implies here.
import type { IncomingMessage } from 'node:http';
import { BadRequestError } from '../domain/errors/domain-errors';
import { escapeFieldSelectorValue, parseFieldSelectorSyntax, requiredFieldValue } from '../domain/selectors/field-selector';
import { watchableScope } from './api-resources';

export interface DeprecatedWatch {
  /** The list path it stands for, with the request's query. */
  listUrl: string;
  /** The object the path names, decoded. */
  name?: string;
}

type ScopeOf = (group: string, version: string, resource: string) => 'Namespaced' | 'Cluster' | undefined;

/** The list a deprecated watch path (and query) watches, or undefined for any other URL. */
export function deprecatedWatch(url: string, scopeOf: ScopeOf = watchableScope): DeprecatedWatch | undefined {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (!path.includes('/watch/')) return undefined;
  const parts = path.split('/');
  // ['', 'api', version, 'watch', ...] or ['', 'apis', group, version, 'watch', ...]
  const at = parts[1] === 'api' ? 3 : parts[1] === 'apis' ? 4 : -1;
  if (at < 0 || parts[0] !== '' || parts[at] !== 'watch') return undefined;
  const rest = parts.slice(at + 1);
  if (rest.includes('')) return undefined;
  let namespace: string | undefined;
  let resource: string;
  let name: string | undefined;
  if (rest[0] === 'namespaces' && (rest.length === 3 || rest.length === 4)) [, namespace, resource, name] = rest;
  else if (rest.length === 1 || rest.length === 2) [resource, name] = rest;
  else return undefined;

  const [group, version, resourceName] = [at === 4 ? parts[2] : '', parts[at - 1], resource].map(decoded);
  const decodedName = name === undefined ? undefined : decoded(name);
  if (group === undefined || version === undefined || resourceName === undefined || (name !== undefined && decodedName === undefined)) return undefined;
  const scope = scopeOf(group, version, resourceName);
  // Namespaced resources have no `watch/{resource}/{name}`, cluster-scoped ones no namespace form.
  if (scope === undefined || (namespace !== undefined ? scope !== 'Namespaced' : name !== undefined && scope !== 'Cluster')) return undefined;
  const listPath = [...parts.slice(0, at), ...(namespace !== undefined ? ['namespaces', namespace] : []), resource].join('/');
  return { listUrl: listPath + (queryAt < 0 ? '' : url.slice(queryAt)), name: decodedName };
}

/** Fastify's rewriteUrl: a GET of a deprecated watch path is routed as its list path. */
export function rewriteDeprecatedWatch(request: IncomingMessage): string {
  const url = request.url ?? '/';
  if (request.method !== 'GET') return url;
  return deprecatedWatch(url)?.listUrl ?? url;
}

/** The deprecated watch path a routed request came in on, if it did (rewriteUrl keeps the original). */
export function deprecatedWatchOf(request: { url: string; originalUrl: string }): DeprecatedWatch | undefined {
  return request.originalUrl === request.url ? undefined : deprecatedWatch(request.originalUrl);
}

/**
 * The field selector of a list watched through a path that names an object (ListResource): the
 * name as `metadata.name=`, or the client's own selector when it pins that same name; any other
 * non-empty selector is a 400.
 */
export function fieldSelectorForName(fieldSelector: string | undefined, name: string | undefined): string | undefined {
  if (name === undefined) return fieldSelector;
  const selector = fieldSelector === undefined ? undefined : parseFieldSelectorSyntax(fieldSelector);
  if (!selector?.requirements.length) return `metadata.name=${escapeFieldSelectorValue(name)}`;
  if (requiredFieldValue(selector, 'metadata.name') !== name) throw new BadRequestError("fieldSelector metadata.name doesn't match requested name");
  return fieldSelector;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
