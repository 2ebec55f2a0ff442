// The parts of kube-apiserver's Service strategies that shape an update before validation:
// pkg/registry/core/service/strategy.go (PrepareForUpdate, dropTypeDependentFields,
// serviceStatusStrategy.PrepareForUpdate) and rest.BeforeUpdate's system-field copying.
import type { ObjectMeta, Service, ServiceSpec } from './service.types';
import { jsonCopy } from './json-copy';
import { externallyAccessible, needsHealthCheck } from './service-exposure';
import { sameJson } from './json-equality';

const same = (a: unknown, b: unknown): boolean => sameJson(a ?? null, b ?? null);

const needsClusterIP = (s: ServiceSpec): boolean => s.type !== 'ExternalName';
const needsNodePort = (s: ServiceSpec): boolean => s.type === 'NodePort' || s.type === 'LoadBalancer';

/** Main resource PUT/PATCH: status is not writable here, and fields the new type cannot have go. */
export function prepareServiceForUpdate(next: Service, old: Service): Service {
  const out = jsonCopy(next);
  out.status = jsonCopy(old.status);
  dropTypeDependentFields(out, old);
  return out;
}

/** /status PUT/PATCH: spec is not writable here; metadata and status are. */
export function prepareServiceStatusForUpdate(next: Service, old: Service): Service {
  const out = jsonCopy(next);
  out.spec = jsonCopy(old.spec);
  return out;
}

/**
 * rest.BeforeUpdate + FillObjectMetaSystemFields: the server owns uid, creationTimestamp,
 * deletion fields and generation; a client that omits them keeps the stored values.
 */
export function copySystemMetadata<T extends { metadata: ObjectMeta }>(next: T, old: T): T {
  const out = jsonCopy(next);
  const meta = out.metadata;
  if (!meta.uid && old.metadata.uid) meta.uid = old.metadata.uid;
  meta.creationTimestamp = old.metadata.creationTimestamp;
  // The precondition was checked already; an unconditional update writes over the stored version.
  meta.resourceVersion = old.metadata.resourceVersion;
  if (!meta.deletionTimestamp && old.metadata.deletionTimestamp) meta.deletionTimestamp = old.metadata.deletionTimestamp;
  if (meta.deletionGracePeriodSeconds === undefined && old.metadata.deletionGracePeriodSeconds !== undefined) {
    meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  }
  if (old.metadata.generation !== undefined) meta.generation = old.metadata.generation;
  else delete meta.generation;
  delete meta.selfLink;
  delete meta.managedFields;
  return out;
}

function dropTypeDependentFields(next: Service, old: Service): void {
  const n = next.spec;
  const o = old.spec;
  if (needsClusterIP(o) && !needsClusterIP(n)) {
    if (same(n.clusterIP, o.clusterIP) && same(n.clusterIPs, o.clusterIPs)) {
      delete n.clusterIP;
      delete n.clusterIPs;
    }
    if (same(n.ipFamilies, o.ipFamilies)) delete n.ipFamilies;
    if (same(n.ipFamilyPolicy, o.ipFamilyPolicy)) delete n.ipFamilyPolicy;
  }
  if (needsNodePort(o) && !needsNodePort(n)) {
    const oldPorts = new Set((o.ports ?? []).map((p) => p.nodePort ?? 0));
    if ((n.ports ?? []).every((p) => oldPorts.has(p.nodePort ?? 0))) {
      for (const p of n.ports ?? []) delete p.nodePort;
    }
  }
  if (needsHealthCheck(o) && !needsHealthCheck(n) && same(n.healthCheckNodePort, o.healthCheckNodePort)) {
    delete n.healthCheckNodePort;
  }
  if (o.type === 'LoadBalancer' && n.type !== 'LoadBalancer') {
    if (n.allocateLoadBalancerNodePorts !== undefined && o.allocateLoadBalancerNodePorts !== undefined && n.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts) {
      delete n.allocateLoadBalancerNodePorts;
    }
    if (same(n.loadBalancerClass, o.loadBalancerClass)) delete n.loadBalancerClass;
  }
  if (externallyAccessible(o) && !externallyAccessible(n) && same(n.externalTrafficPolicy, o.externalTrafficPolicy)) {
    delete n.externalTrafficPolicy;
  }
  if (n.type !== 'LoadBalancer') next.status = { ...next.status, loadBalancer: {} };
}
