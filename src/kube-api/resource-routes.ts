// The Kubernetes paths svctrail serves and the methods each allows, so that a known path with
// an unrouted method answers 405 MethodNotAllowed (as go-restful does) instead of 404.
import { deprecatedWatch } from './deprecated-watch-path';

const SEGMENT = '[^/]+';

const ROUTES: { pattern: RegExp; methods: readonly string[] }[] = [
  { pattern: new RegExp(`^/api/v1/namespaces/${SEGMENT}/services$`), methods: ['GET', 'POST', 'DELETE'] },
  { pattern: new RegExp(`^/api/v1/namespaces/${SEGMENT}/services/${SEGMENT}$`), methods: ['GET', 'PUT', 'PATCH', 'DELETE'] },
  { pattern: new RegExp(`^/api/v1/namespaces/${SEGMENT}/services/${SEGMENT}/status$`), methods: ['GET', 'PUT', 'PATCH'] },
  { pattern: /^\/api\/v1\/services$/, methods: ['GET'] },
  { pattern: new RegExp(`^/api/v1/namespaces/${SEGMENT}/events(/${SEGMENT})?$`), methods: ['GET'] },
  { pattern: /^\/api\/v1\/events$/, methods: ['GET'] },
  { pattern: new RegExp(`^/apis/events\\.k8s\\.io/v1/namespaces/${SEGMENT}/events$`), methods: ['GET', 'POST', 'DELETE'] },
  { pattern: new RegExp(`^/apis/events\\.k8s\\.io/v1/namespaces/${SEGMENT}/events/${SEGMENT}$`), methods: ['GET', 'PUT', 'PATCH', 'DELETE'] },
  { pattern: /^\/apis\/events\.k8s\.io\/v1\/events$/, methods: ['GET'] },
  // The self reviews are create-only.
  { pattern: /^\/apis\/authorization\.k8s\.io\/v1\/(selfsubjectaccessreviews|selfsubjectrulesreviews)$/, methods: ['POST'] },
  { pattern: /^\/apis\/authentication\.k8s\.io\/(v1|v1beta1)\/selfsubjectreviews$/, methods: ['POST'] },
];

/** True when the path is a served resource but `method` is not one of its verbs. */
export function isMethodNotAllowed(method: string, url: string): boolean {
  // A deprecated watch path is a GET route of its own (installer.go's WATCH and WATCHLIST).
  if (deprecatedWatch(url) !== undefined) return method.toUpperCase() !== 'GET';
  const path = url.split('?')[0];
  const route = ROUTES.find((r) => r.pattern.test(path));
  return route !== undefined && !route.methods.includes(method.toUpperCase());
}
