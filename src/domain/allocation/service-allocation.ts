// The pure equivalent of the Service storage hooks BeginCreate / BeginUpdate
// (kubernetes pkg/registry/core/service/storage/storage.go beginCreate/beginUpdate and
// alloc.go allocateCreate/allocateUpdate). Inputs are never mutated; the returned Service
// carries the defaulted IP-family fields and the allocated cluster IPs / node ports.
//
// Nothing is reserved here: the caller turns the result into allocation-table changes with
// allocationChanges(old, new) once the write commits (upstream's "finish" callback), which
// is also how releases (type changes, dual-stack downgrades, deletes) happen.
import { InternalServerError, InvalidError, RawServerError } from '../errors/domain-errors';
import { fieldErrors } from '../errors/field-error';
import { needsHealthCheck } from '../service-exposure';
import { type Service } from '../service.types';
import { goStringSlice } from '../validation/bad-values';
import { type AllocationContext, AllocationOperation, tableIP } from './allocation-context';
import { rangeForFamily, type IPFamilyName } from './cluster-ip-range';
import { initIPFamilyFields, isMatchingPreferDualStackClusterIPFields } from './init-ip-family-fields';
import { normalizeClusterIPs } from './normalize-cluster-ips';
import { patchAllocatedValues } from './patch-allocated-values';
import { isHeadless, needsClusterIP, needsNodePort, shouldAllocateNodePorts } from './service-needs';
import { jsonCopy } from '../json-copy';

export type { AllocationContext } from './allocation-context';

export interface AllocatedValues {
  /** Canonical text, as the allocation table keys them. */
  clusterIPs: string[];
  /** Node ports and the health-check node port, each once. */
  nodePorts: number[];
}

function serviceName(svc: Service): string {
  return svc.metadata.name ?? '';
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * allocIPs: one IP per family, "" meaning "any". The BadValue of a failed request is the
 * whole clusterIPs slice, including the "" markers allocClusterIPs appended.
 */
function allocIPs(svc: Service, toAlloc: [string, string][], op: AllocationOperation): Map<string, string> {
  const allocated = new Map<string, string>();
  for (const [family, ip] of toAlloc) {
    const range = rangeForFamily(op.ctx.clusterIPRange, family as IPFamilyName);
    if (!range) throw new InternalServerError(`failed to allocate a serviceIP: ${family} is not configured on this cluster`);
    if (ip === '') {
      try {
        allocated.set(family, op.allocateNextIP(range));
      } catch (err) {
        throw new InternalServerError(`failed to allocate a serviceIP: ${errorMessage(err)}`);
      }
    } else {
      try {
        op.allocateIP(range, ip);
      } catch (err) {
        throw new InvalidError('Service', serviceName(svc), [fieldErrors.invalid('spec.clusterIPs', goStringSlice(svc.spec.clusterIPs), `failed to allocate IP ${ip}: ${errorMessage(err)}`)]);
      }
      // A requested IP is stored as the user wrote it.
      allocated.set(family, ip);
    }
  }
  return allocated;
}

/** allocClusterIPs: ExternalName and headless services get none. */
function allocClusterIPs(svc: Service, op: AllocationOperation): void {
  const spec = svc.spec;
  if (spec.type === 'ExternalName' || isHeadless(svc)) return;
  const families = spec.ipFamilies ?? [];
  const ips = [...(spec.clusterIPs ?? [])];
  while (ips.length < families.length) ips.push('');
  spec.clusterIPs = ips;
  const allocated = allocIPs(
    svc,
    families.map((family, i) => [family, ips[i]]),
    op,
  );
  families.forEach((family, i) => {
    const ip = allocated.get(family);
    if (ip === undefined) return;
    ips[i] = ip;
    if (i === 0) spec.clusterIP = ip;
  });
}

/**
 * initNodePorts (create): requested nodePorts are reserved, zero ones allocated (unless an LB
 * opted out), and ports sharing a port number (TCP/53 + UDP/53) share one nodePort.
 */
function initNodePorts(svc: Service, op: AllocationOperation): void {
  const ports = svc.spec.ports ?? [];
  const byPortNumber = new Map<number, number>();
  const allocate = shouldAllocateNodePorts(svc);
  ports.forEach((sp, i) => {
    const nodePort = sp.nodePort ?? 0;
    if (nodePort === 0 && !allocate) return;
    const shared = byPortNumber.get(sp.port) ?? 0;
    const path = `spec.ports[${i}].nodePort`;
    if (shared === 0) {
      // findRequestedNodePort: the first port with this number that carries a nodePort.
      const requested = ports.find((p) => p.port === sp.port && (p.nodePort ?? 0) !== 0)?.nodePort ?? 0;
      if (requested !== 0) {
        try {
          op.allocatePort(requested);
        } catch (err) {
          throw new InvalidError('Service', serviceName(svc), [fieldErrors.invalid(path, requested, errorMessage(err))]);
        }
        sp.nodePort = requested;
        byPortNumber.set(sp.port, requested);
      } else {
        let next: number;
        try {
          next = op.allocateNextPort();
        } catch (err) {
          throw new InternalServerError(`failed to allocate a nodePort: ${errorMessage(err)}`);
        }
        sp.nodePort = next;
        byPortNumber.set(sp.port, next);
      }
    } else if (nodePort !== shared) {
      if (nodePort === 0) {
        sp.nodePort = shared;
      } else {
        try {
          op.allocatePort(nodePort);
        } catch (err) {
          throw new InvalidError('Service', serviceName(svc), [fieldErrors.invalid(path, nodePort, errorMessage(err))]);
        }
      }
    }
  });
}

/** allocHealthCheckNodePort; every failure is a 500 (the caller wraps it in NewInternalError). */
function allocHealthCheckNodePort(svc: Service, op: AllocationOperation): void {
  const requested = svc.spec.healthCheckNodePort ?? 0;
  if (requested !== 0) {
    try {
      op.allocatePort(requested);
    } catch (err) {
      throw new InternalServerError(`failed to allocate requested HealthCheck NodePort ${requested}: ${errorMessage(err)}`);
    }
  } else {
    try {
      svc.spec.healthCheckNodePort = op.allocateNextPort();
    } catch (err) {
      // Upstream prints the (zero) port it failed to get.
      throw new InternalServerError(`failed to allocate a HealthCheck NodePort 0: ${errorMessage(err)}`);
    }
  }
}

/** BeginCreate: normalizeClusterIPs → initIPFamilyFields → cluster IPs → node ports → health check port. */
export function prepareServiceCreate(input: Service, ctx: AllocationContext): Service {
  const svc = jsonCopy(input);
  normalizeClusterIPs(svc);
  initIPFamilyFields(svc, undefined, ctx.clusterIPRange);
  const op = new AllocationOperation(ctx);
  allocClusterIPs(svc, op);
  if (needsNodePort(svc)) initNodePorts(svc, op);
  if (needsHealthCheck(svc.spec)) allocHealthCheckNodePort(svc, op);
  return svc;
}

/** updateClusterIPs: ExternalName→other allocates all, 1→2 families allocates the secondary. */
function updateClusterIPs(svc: Service, oldSvc: Service, op: AllocationOperation): void {
  if (isMatchingPreferDualStackClusterIPFields(svc, oldSvc)) return;
  if (oldSvc.spec.type === 'ExternalName' && svc.spec.type !== 'ExternalName') {
    allocClusterIPs(svc, op);
    return;
  }
  if (isHeadless(oldSvc)) return;
  // other→ExternalName and 2→1 families only release, after commit.
  if (svc.spec.type === 'ExternalName') return;
  const families = svc.spec.ipFamilies ?? [];
  if ((oldSvc.spec.ipFamilies ?? []).length === 1 && families.length === 2) {
    const ips = [...(svc.spec.clusterIPs ?? [])];
    while (ips.length < 2) ips.push('');
    svc.spec.clusterIPs = ips;
    const allocated = allocIPs(svc, [[families[1], ips[1]]], op);
    ips[1] = allocated.get(families[1]) ?? ips[1];
  }
}

/** The node ports a Service holds in the allocator, i.e. only where its type allocates them. */
function heldNodePorts(svc: Service): number[] {
  if (!needsNodePort(svc)) return [];
  return (svc.spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p !== 0);
}

/**
 * updateNodePorts: ports the old object already held are kept without a check, new ones are
 * reserved, zero ones allocated. Two ports with the same (protocol, nodePort) make upstream
 * return a bare (non-Status) error.
 */
function updateNodePorts(svc: Service, oldSvc: Service, op: AllocationOperation): void {
  // Upstream counts every nodePort of the old object; we count only those it actually held
  // (an ExternalName object may carry unallocated nodePorts), so the table never diverges.
  const oldNumbers = new Set(heldNodePorts(oldSvc));
  const reserved = new Set<number>();
  const seen = new Set<string>();
  const allocate = shouldAllocateNodePorts(svc);
  (svc.spec.ports ?? []).forEach((sp, i) => {
    let nodePort = sp.nodePort ?? 0;
    if (nodePort === 0 && !allocate) return;
    if (nodePort !== 0) {
      if (!oldNumbers.has(nodePort) && !reserved.has(nodePort)) {
        try {
          op.allocatePort(nodePort);
        } catch (err) {
          throw new InvalidError('Service', serviceName(svc), [fieldErrors.invalid(`spec.ports[${i}].nodePort`, nodePort, errorMessage(err))]);
        }
        reserved.add(nodePort);
      }
    } else {
      try {
        nodePort = op.allocateNextPort();
      } catch (err) {
        throw new InternalServerError(`failed to allocate a nodePort: ${errorMessage(err)}`);
      }
      sp.nodePort = nodePort;
    }
    const key = `${sp.protocol ?? ''} ${nodePort}`;
    if (seen.has(key)) throw new RawServerError(`duplicate nodePort: {${key}}`);
    seen.add(key);
  });
}

/**
 * BeginUpdate: patchAllocatedValues → normalizeClusterIPs → initIPFamilyFields → cluster IP
 * allocation for type changes / upgrades → node ports → health-check port.
 * `oldSvc` is the stored object; the caller's table still holds its values.
 */
export function prepareServiceUpdate(oldInput: Service, newInput: Service, ctx: AllocationContext): Service {
  const oldSvc = jsonCopy(oldInput);
  const svc = jsonCopy(newInput);
  patchAllocatedValues(svc, oldSvc);
  normalizeClusterIPs(svc, oldSvc);
  initIPFamilyFields(svc, oldSvc, ctx.clusterIPRange);
  const op = new AllocationOperation(ctx);
  updateClusterIPs(svc, oldSvc, op);
  if (needsNodePort(svc)) updateNodePorts(svc, oldSvc, op);
  if (!needsHealthCheck(oldSvc.spec) && needsHealthCheck(svc.spec)) allocHealthCheckNodePort(svc, op);
  return svc;
}

/**
 * The values a live Service holds in the allocators: cluster IPs unless ExternalName or
 * headless; node ports for NodePort/LoadBalancer; the health-check port when NeedsHealthCheck.
 */
export function allocatedValues(svc: Service): AllocatedValues {
  const clusterIPs = needsClusterIP(svc) && !isHeadless(svc) ? [...new Set((svc.spec.clusterIPs ?? []).filter((ip) => ip !== '' && ip !== 'None').map(tableIP))] : [];
  const nodePorts = new Set(heldNodePorts(svc));
  if (needsHealthCheck(svc.spec) && svc.spec.healthCheckNodePort) nodePorts.add(svc.spec.healthCheckNodePort);
  return { clusterIPs, nodePorts: [...nodePorts] };
}

/**
 * The table changes of a committed write: `before` undefined for a create, `after`
 * undefined for a delete (upstream's afterDelete releaseAllocatedResources).
 */
export function allocationChanges(before: Service | undefined, after: Service | undefined): { allocate: AllocatedValues; release: AllocatedValues } {
  const b = before ? allocatedValues(before) : { clusterIPs: [], nodePorts: [] };
  const a = after ? allocatedValues(after) : { clusterIPs: [], nodePorts: [] };
  return {
    allocate: {
      clusterIPs: a.clusterIPs.filter((ip) => !b.clusterIPs.includes(ip)),
      nodePorts: a.nodePorts.filter((p) => !b.nodePorts.includes(p)),
    },
    release: {
      clusterIPs: b.clusterIPs.filter((ip) => !a.clusterIPs.includes(ip)),
      nodePorts: b.nodePorts.filter((p) => !a.nodePorts.includes(p)),
    },
  };
}
