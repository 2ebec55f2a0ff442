// patchAllocatedValues of kubernetes pkg/registry/core/service/storage/storage.go: lets a
// client re-submit its original manifest (without the server-allocated values) and keep the
// cluster IPs, node ports and health-check port it was given. Mutates `svc`.
import { needsHealthCheck } from '../service-exposure';
import { type Service } from '../service.types';
import { needsClusterIP, needsNodePort } from './service-needs';

function nodePortsUsed(svc: Service): Set<number> {
  const used = new Set<number>();
  for (const p of svc.spec.ports ?? []) if (p.nodePort) used.add(p.nodePort);
  return used;
}

export function patchAllocatedValues(svc: Service, oldSvc: Service): void {
  const spec = svc.spec;
  const oldSpec = oldSvc.spec;

  if (needsClusterIP(oldSvc) && needsClusterIP(svc)) {
    if (!spec.clusterIP && oldSpec.clusterIP) spec.clusterIP = oldSpec.clusterIP;
    if ((spec.clusterIPs ?? []).length === 0 && (oldSpec.clusterIPs ?? []).length > 0) {
      spec.clusterIPs = [...oldSpec.clusterIPs!];
    }
  }

  if (needsNodePort(oldSvc) && needsNodePort(svc)) {
    // Values present in both objects can not be patched onto another port.
    const oldUsed = nodePortsUsed(oldSvc);
    const used = new Set([...nodePortsUsed(svc)].filter((p) => oldUsed.has(p)));
    // Matched by port name only; the last old port of a name wins, as in Go's map fill.
    const byName = new Map<string, number>();
    for (const p of oldSpec.ports ?? []) byName.set(p.name ?? '', p.nodePort ?? 0);
    for (const p of spec.ports ?? []) {
      if (p.nodePort) continue;
      const oldVal = byName.get(p.name ?? '') ?? 0;
      if (oldVal !== 0 && !used.has(oldVal)) p.nodePort = oldVal;
    }
  }

  if (needsHealthCheck(oldSvc.spec) && needsHealthCheck(svc.spec)) {
    if (!spec.healthCheckNodePort && oldSpec.healthCheckNodePort) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
}
