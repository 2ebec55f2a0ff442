// The service cluster IP range(s) of `--service-cluster-ip-range` and the bitmap allocator
// semantics of kubernetes pkg/registry/core/service/ipallocator/bitmap.go (the legacy
// allocator used by v1.32, where MultiCIDRServiceAllocator is off by default).
import { canonicalIP, formatCIDR, formatIP, type IPFamily, parseCIDR, parseIP, type ParsedCIDR, prefixMask } from '../net/ip';
import { randomScanWithOffset } from './random-scan-strategy';

export type IPFamilyName = 'IPv4' | 'IPv6';

/** One bitmap over one CIDR. Offsets 0..max-1 stand for the addresses first..first+max-1. */
export interface IPFamilyRange {
  family: IPFamily;
  familyName: IPFamilyName;
  cidr: ParsedCIDR;
  /** Go's IPNet.String(), as quoted in "The range of valid IPs is …". */
  cidrText: string;
  /** The first allocatable address (network address + 1). */
  first: bigint;
  /** Number of allocatable addresses. */
  max: number;
  /** Size of the static (lower) band preferred for user-requested IPs. */
  staticBand: number;
}

export interface ClusterIPRange {
  primary: IPFamilyRange;
  secondary?: IPFamilyRange;
}

/** kube-apiserver's default `--service-cluster-ip-range` (kubeadm and kind use 10.96.0.0/12). */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';

/** maxCIDRBits of kube-apiserver's validateMaxCIDRRange for the bitmap allocator. */
const MAX_CIDR_BITS = 20;

export function familyName(family: IPFamily): IPFamilyName {
  return family === 4 ? 'IPv4' : 'IPv6';
}

/** netutils.RangeSize: 0 for /0-/1 v4 and /0-/1 v6, saturating at 2^63-1. */
function rangeSize(cidr: ParsedCIDR): bigint {
  const bits = cidr.family === 4 ? 32 : 128;
  const hostBits = bits - cidr.prefix;
  if ((bits === 32 && hostBits >= 31) || (bits === 128 && hostBits >= 127)) return 0n;
  if (hostBits >= 63) return (1n << 63n) - 1n;
  return 1n << BigInt(hostBits);
}

/** ipallocator.calculateRangeOffset: min(max(16, cidrSize/16), 256), 0 for tiny ranges. */
function calculateRangeOffset(cidr: ParsedCIDR): number {
  const size = rangeSize(cidr);
  if (size <= 16n) return 0;
  const offset = size / 16n;
  if (offset < 16n) return 16;
  if (offset > 256n) return 256;
  return Number(offset);
}

/** ipallocator.New: v4 drops network and broadcast, v6 only the network address; v6 capped at 65536. */
export function newIPFamilyRange(cidr: ParsedCIDR): IPFamilyRange {
  let max = rangeSize(cidr);
  if (cidr.family === 6) {
    if (max > 65536n) max = 65536n;
  } else {
    max--;
  }
  max--;
  if (max < 0n) max = 0n;
  return {
    family: cidr.family,
    familyName: familyName(cidr.family),
    cidr,
    cidrText: formatCIDR(cidr),
    first: cidr.base + 1n,
    max: Number(max),
    staticBand: calculateRangeOffset(cidr),
  };
}

/**
 * Parses `--service-cluster-ip-range`: one CIDR, or two comma-separated CIDRs of different
 * families (dual-stack; the first is primary). Throws Error with a kube-apiserver-like text.
 */
export function parseClusterIPRange(text: string): ClusterIPRange {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > 2) {
    throw new Error('--service-cluster-ip-range must not contain more than two entries');
  }
  const cidrs = parts.map((p, i) => {
    const cidr = parseCIDR(p);
    if (!cidr) throw new Error(`service IP range[${i}] is not a valid CIDR: ${p}`);
    const bits = cidr.family === 4 ? 32 : 128;
    if (bits - cidr.prefix > MAX_CIDR_BITS) {
      throw new Error(`specified --service-cluster-ip-range is too large; for ${bits}-bit addresses, the mask must be >= ${bits - MAX_CIDR_BITS}`);
    }
    return cidr;
  });
  if (cidrs.length === 2 && cidrs[0].family === cidrs[1].family) {
    throw new Error('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
  }
  return {
    primary: newIPFamilyRange(cidrs[0]),
    ...(cidrs[1] ? { secondary: newIPFamilyRange(cidrs[1]) } : {}),
  };
}

/** The ranges by family, primary first. */
export function configuredRanges(range: ClusterIPRange): IPFamilyRange[] {
  return range.secondary ? [range.primary, range.secondary] : [range.primary];
}

export function rangeForFamily(range: ClusterIPRange, family: IPFamilyName): IPFamilyRange | undefined {
  return configuredRanges(range).find((r) => r.familyName === family);
}

/**
 * The address kube-apiserver gives `default/kubernetes`: the first address after the
 * network address of the primary range (GetIndexedIP(cidr, 1)).
 */
export function kubernetesServiceIP(range: ClusterIPRange): string {
  return formatIP(range.primary.family, range.primary.first);
}

/** Range.contains: the bitmap offset of an IP, or null when outside the allocatable part. */
export function ipOffset(r: IPFamilyRange, ipText: string): number | null {
  const ip = parseIP(ipText);
  if (!ip || ip.family !== r.family) return null;
  if ((ip.value & prefixMask(r.family, r.cidr.prefix)) !== r.cidr.base) return null;
  const offset = ip.value - r.first;
  if (offset < 0n || offset >= BigInt(r.max)) return null;
  return Number(offset);
}

/** The address at a bitmap offset, canonical text. */
export function ipAtOffset(r: IPFamilyRange, offset: number): string {
  return formatIP(r.family, r.first + BigInt(offset));
}

/** Errors of ipallocator.Allocate/AllocateNext with their exact Go texts. */
export class IPAllocatorError extends Error {
  constructor(
    readonly kind: 'NotInRange' | 'Allocated' | 'Full',
    message: string,
  ) {
    super(message);
    this.name = 'IPAllocatorError';
  }
}

/**
 * Range.Allocate for a requested IP. `isTaken` gets the canonical text of an address.
 * Throws IPAllocatorError (ErrNotInRange / ErrAllocated).
 */
export function allocateIP(r: IPFamilyRange, ipText: string, isTaken: (ip: string) => boolean): string {
  const offset = ipOffset(r, ipText);
  if (offset === null) {
    const shown = canonicalIP(ipText) ?? '<nil>';
    throw new IPAllocatorError('NotInRange', `the provided IP (${shown}) is not in the valid range. The range of valid IPs is ${r.cidrText}`);
  }
  const canonical = ipAtOffset(r, offset);
  if (isTaken(canonical)) throw new IPAllocatorError('Allocated', 'provided IP is already allocated');
  return canonical;
}

/** Range.AllocateNext: a random free IP (upper band first). Throws IPAllocatorError('Full'). */
export function allocateNextIP(r: IPFamilyRange, isTaken: (ip: string) => boolean, random: () => number): string {
  const offset = randomScanWithOffset(r.max, r.staticBand, (o) => isTaken(ipAtOffset(r, o)), random);
  if (offset === null) throw new IPAllocatorError('Full', 'range is full');
  return ipAtOffset(r, offset);
}
