// What a Service type needs from the allocators: the small predicates of kubernetes
// pkg/registry/core/service/storage (needsClusterIP, needsNodePort, shouldAllocateNodePorts)
// and pkg/api/service/util.go (NeedsHealthCheck).
import { type Service } from '../service.types';

/** needsClusterIP: everything but ExternalName. */
export function needsClusterIP(svc: Service): boolean {
  return svc.spec.type !== 'ExternalName';
}

/** needsNodePort: NodePort and LoadBalancer. */
export function needsNodePort(svc: Service): boolean {
  return svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer';
}

/**
 * shouldAllocateNodePorts: NodePort always; LoadBalancer unless allocateLoadBalancerNodePorts is
 * false (defaulting sets it to true, so a missing value counts as true).
 */
export function shouldAllocateNodePorts(svc: Service): boolean {
  if (svc.spec.type === 'NodePort') return true;
  if (svc.spec.type === 'LoadBalancer') return svc.spec.allocateLoadBalancerNodePorts !== false;
  return false;
}

/** Headless as the allocator sees it: clusterIPs[0] == "None". */
export function isHeadless(svc: Service): boolean {
  const ips = svc.spec.clusterIPs;
  return ips !== undefined && ips.length > 0 && ips[0] === 'None';
}
