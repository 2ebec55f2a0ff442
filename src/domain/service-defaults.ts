// Decode-time defaulting of a v1 Service: SetDefaults_Service
// (kubernetes/kubernetes pkg/apis/core/v1/defaults.go) with ExternallyAccessible from
// pkg/api/service/util.go. Runs on every decoded body and on every patched object (§1.1).
// Pure: returns a new object and never mutates its argument (untouched subtrees are shared).
import { externallyAccessible } from './service-exposure';
import { type LoadBalancerIngress, type Service, type ServicePort, type ServiceSpec } from './service.types';

/** DefaultClientIPServiceAffinitySeconds: 3 hours. */
export const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

/** service.ExternallyAccessible: LB, NodePort, or ClusterIP with external IPs. */
function defaultPort(port: ServicePort): ServicePort {
  const out: ServicePort = { ...port };
  if (!out.protocol) out.protocol = 'TCP';
  // intstr.FromInt32(0) or FromString(""): both mean "not set" (absent decodes as int 0).
  if (out.targetPort === undefined || out.targetPort === null || out.targetPort === 0 || out.targetPort === '') {
    out.targetPort = out.port ?? 0;
  }
  return out;
}

export function applyServiceDefaults(svc: Service): Service {
  const spec: ServiceSpec = { ...(svc.spec ?? {}) };

  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (timeout === undefined || timeout === null) {
      // The whole struct is replaced, as upstream does.
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
    }
  }
  if (!spec.type) spec.type = 'ClusterIP';
  if (spec.ports) spec.ports = spec.ports.map(defaultPort);
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') {
      spec.internalTrafficPolicy = 'Cluster';
    }
  }
  if (spec.type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) {
    spec.allocateLoadBalancerNodePorts = true;
  }

  let status = svc.status;
  // LoadBalancerIPMode is GA in 1.32: looks at the type of *this* object, not the stored one.
  const ingress = svc.status?.loadBalancer?.ingress;
  if (spec.type === 'LoadBalancer' && ingress?.some((ing) => ing.ip && (ing.ipMode === undefined || ing.ipMode === null))) {
    const defaulted: LoadBalancerIngress[] = ingress.map((ing) => (ing.ip && (ing.ipMode === undefined || ing.ipMode === null) ? { ...ing, ipMode: 'VIP' } : ing));
    status = { ...svc.status, loadBalancer: { ...svc.status.loadBalancer, ingress: defaulted } };
  }

  return { ...svc, spec, status };
}
