// What the pure allocation code needs from its caller, plus the per-request bookkeeping that
// plays the part of upstream's allocator transactions (values taken earlier in the same
// request are taken for the rest of it; releases only happen after commit, by the caller).
import { canonicalIP } from '../net/ip';
import { allocateIP, allocateNextIP, type ClusterIPRange, type IPFamilyRange } from './cluster-ip-range';
import { allocateNextPort, allocatePort, type NodePortRange } from './node-port-range';

/**
 * The cluster configuration and the current allocation table.
 *
 * `isClusterIPAllocated` / `isNodePortAllocated` must answer from the table as it is *before*
 * this request, including the values of the object being updated (upstream's bitmaps hold
 * them until the update commits). The allocation code itself skips the values an update may
 * keep, exactly where kube-apiserver does (e.g. nodePorts already on the old object). IPs are
 * asked for in canonical form (net.IP.String()). `default/kubernetes` holds the first address
 * of the primary range: include it in the table.
 */
export interface AllocationContext {
  clusterIPRange: ClusterIPRange;
  nodePortRange: NodePortRange;
  isClusterIPAllocated(ip: string): boolean;
  isNodePortAllocated(port: number): boolean;
  /** Uniform in [0, 1): the source of Go's rand.Intn. */
  random: () => number;
}

/** One request's view of the allocators. */
export class AllocationOperation {
  private readonly ips = new Set<string>();
  private readonly ports = new Set<number>();

  constructor(readonly ctx: AllocationContext) {}

  private ipTaken = (ip: string): boolean => this.ips.has(ip) || this.ctx.isClusterIPAllocated(ip);
  private portTaken = (port: number): boolean => this.ports.has(port) || this.ctx.isNodePortAllocated(port);

  /** Range.Allocate; throws IPAllocatorError. Returns the canonical text. */
  allocateIP(range: IPFamilyRange, ip: string): string {
    const canonical = allocateIP(range, ip, this.ipTaken);
    this.ips.add(canonical);
    return canonical;
  }

  /** Range.AllocateNext; throws IPAllocatorError('Full'). */
  allocateNextIP(range: IPFamilyRange): string {
    const ip = allocateNextIP(range, this.ipTaken, this.ctx.random);
    this.ips.add(ip);
    return ip;
  }

  /** PortAllocator.Allocate; throws PortAllocatorError. */
  allocatePort(port: number): void {
    allocatePort(this.ctx.nodePortRange, port, this.portTaken);
    this.ports.add(port);
  }

  /** PortAllocator.AllocateNext; throws PortAllocatorError('Full'). */
  allocateNextPort(): number {
    const port = allocateNextPort(this.ctx.nodePortRange, this.portTaken, this.ctx.random);
    this.ports.add(port);
    return port;
  }

  /** Canonical IPs allocated by this operation. */
  allocatedIPs(): string[] {
    return [...this.ips];
  }

  /** Ports allocated by this operation. */
  allocatedPorts(): number[] {
    return [...this.ports];
  }
}

/** Canonical form of a stored clusterIP for the allocation table (the raw text if unparsable). */
export function tableIP(ip: string): string {
  return canonicalIP(ip) ?? ip;
}
