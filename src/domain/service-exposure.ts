// Two questions kube-apiserver asks of a Service's type in several places (defaulting, validation,
// the update strategy, node port allocation), answered once here: is it reachable from outside
// the cluster, and does it need a health-check node port.
import type { ServiceSpec } from './service.types';

/** apiservice.ExternallyAccessible: LoadBalancer, NodePort, or ClusterIP with external IPs. */
export function externallyAccessible(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && (spec.externalIPs?.length ?? 0) > 0);
}

/** apiservice.NeedsHealthCheck: LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}
