// The resource and operation of a request, named as kube-apiserver's Status messages name them.
import { queryBool } from './query-parameters';

/**
 * What a request asked of which resource, as kube-apiserver's messages name them: `services`
 * (`events`, `services.history.svctrail.io`) and get, list, watch, create, update, patch, delete;
 * of the URL as the client sent it (a deprecated watch path is a watch).
 */
export function requestTarget(request: { method: string; url: string }): { resource: string; operation: string } {
  const queryAt = request.url.indexOf('?');
  const pathname = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : request.url.slice(queryAt + 1));
  const path = pathname.split('/').filter(Boolean);
  const group = path[0] === 'apis' ? path[1] : '';
  let rest = path.slice(path[0] === 'apis' ? 3 : 2);
  const watch = rest[0] === 'watch' || queryBool(query, 'watch');
  if (rest[0] === 'watch') rest = rest.slice(1);
  if (rest[0] === 'namespaces' && rest.length > 2) rest = rest.slice(2);
  const resource = `${rest[0] ?? 'resources'}${group ? `.${group}` : ''}`;
  const verbs: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
  const operation = request.method !== 'GET' ? (verbs[request.method] ?? request.method.toLowerCase()) : watch ? 'watch' : rest.length > 1 ? 'get' : 'list';
  return { resource, operation };
}
