// The verb, resource and subresource of a request, for metrics labels (apiserver's RequestInfo,
// reduced to what svctrail serves; unknown paths are grouped so labels stay bounded).
export interface RequestKind {
  verb: string;
  resource: string;
  subresource: string;
}

const RESOURCE_PATH = /^\/api\/v1\/(?:namespaces\/[^/]+\/)?(services|events)(?:\/([^/]+))?(?:\/(status))?$/;
const HISTORY_PATH = /^\/apis\/history\.svctrail\.io\/v1alpha1\/(?:namespaces\/[^/]+\/)?(?:services\/[^/]+\/)?([a-z]+)/;

export function requestKind(method: string, url: string, watch: boolean): RequestKind {
  const path = url.split('?')[0];
  const m = RESOURCE_PATH.exec(path);
  if (m) {
    const named = m[2] !== undefined;
    const verbs: Record<string, string> = named ? { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } : { GET: watch ? 'watch' : 'list', POST: 'create', DELETE: 'deletecollection' };
    return { verb: verbs[method] ?? method.toLowerCase(), resource: m[1], subresource: m[3] ?? '' };
  }
  const h = HISTORY_PATH.exec(path);
  if (h) return { verb: 'get', resource: `history/${h[1]}`, subresource: '' };
  const nonResource = ['/api', '/apis', '/api/v1', '/version', '/healthz', '/livez', '/readyz', '/metrics'].includes(path) ? path : path.startsWith('/openapi') ? '/openapi' : 'other';
  return { verb: method.toLowerCase(), resource: nonResource, subresource: '' };
}
