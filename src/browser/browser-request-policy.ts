// What a request that is authenticated only by the browser session cookie may do: read Services,
// Events and history, whatever the user's token or certificate could do elsewhere. A cookie is
// sent by the browser on its own, so anything that changes state is refused outright (403),
// before the policy file is even asked; reads are then authorized as that user like any request.
import type { RequestAttributes } from '../authz/request-attributes';

const READ_VERBS = new Set(['get', 'list', 'watch']);
const CORE_READABLE = new Set(['services', 'events']);

export function browserSessionMayRequest(method: string, attributes: RequestAttributes): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!attributes.isResourceRequest || !READ_VERBS.has(attributes.verb)) return false;
  if (attributes.apiPrefix === 'api' && attributes.apiGroup === '') return CORE_READABLE.has(attributes.resource);
  if (attributes.apiGroup === 'events.k8s.io') return attributes.resource === 'events';
  return attributes.apiGroup === 'history.svctrail.io';
}
