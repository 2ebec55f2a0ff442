// normalizeClusterIPs of kubernetes pkg/registry/core/service/storage/storage.go: keep the
// singular clusterIP and the plural clusterIPs in sync before anything else looks at them.
// Mutates `svc` (callers pass their own copy).
import { type Service } from '../service.types';

function sameClusterIPs(a: Service, b: Service): boolean {
  const x = a.spec.clusterIPs ?? [];
  const y = b.spec.clusterIPs ?? [];
  return x.length === y.length && x.every((ip, i) => ip === y[i]);
}

export function normalizeClusterIPs(svc: Service, oldSvc?: Service): void {
  const spec = svc.spec;
  const clusterIP = spec.clusterIP ?? '';
  const clusterIPs = spec.clusterIPs ?? [];

  if (!oldSvc) {
    // Create: an old client set only the singular field. The reverse is never inferred: new
    // clients must send both, and validation reports the mismatch.
    if (clusterIP.length > 0 && clusterIPs.length === 0) spec.clusterIPs = [clusterIP];
    return;
  }

  const oldClusterIP = oldSvc.spec.clusterIP ?? '';
  const oldClusterIPs = oldSvc.spec.clusterIPs ?? [];

  // An old client patched some other field and dropped clusterIPs.
  if (oldClusterIPs.length > 0 && clusterIPs.length === 0 && oldClusterIP === clusterIP) {
    spec.clusterIPs = [...oldClusterIPs];
  }

  if (oldClusterIP !== clusterIP) {
    if (oldClusterIP.length > 0 && clusterIP.length === 0) {
      // Clearing the singular field clears the plural too when the client left it untouched.
      if (sameClusterIPs(oldSvc, svc)) delete spec.clusterIPs;
    } else if (sameClusterIPs(oldSvc, svc)) {
      // A changed singular field with an untouched plural one: the singular wins (and the
      // change is then reported by validation on spec.clusterIPs[0]).
      spec.clusterIPs = [clusterIP];
    }
  }
}
