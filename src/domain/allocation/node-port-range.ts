// `--service-node-port-range` (k8s.io/apimachinery pkg/util/net/port_range.go) and the port
// allocator of kubernetes pkg/registry/core/service/portallocator/allocator.go.
import { randomScanWithOffset } from './random-scan-strategy';

export interface NodePortRange {
  base: number;
  size: number;
  /** PortRange.String(): "30000-32767". */
  text: string;
  /** Size of the static (lower) band preferred for user-requested ports. */
  staticBand: number;
}

export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

/** Go's strconv.Atoi for the forms that occur here: optional sign, decimal digits. */
function atoi(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text);
}

/** portallocator.calculateRangeOffset: min(max(16, size/32), 128), 0 for tiny ranges. */
function calculateRangeOffset(size: number): number {
  if (size <= 16) return 0;
  const offset = Math.floor(size / 32);
  if (offset < 16) return 16;
  if (offset > 128) return 128;
  return offset;
}

export function newNodePortRange(base: number, size: number): NodePortRange {
  return { base, size, text: size === 0 ? '' : `${base}-${base + size - 1}`, staticBand: calculateRangeOffset(size) };
}

/** PortRange.Set: "min-max", "min+offset" or a single port; throws Error on bad input. */
export function parseNodePortRange(value: string): NodePortRange {
  const text = value.trim();
  if (text === '') return newNodePortRange(0, 0);
  const hyphen = text.indexOf('-');
  const plus = text.indexOf('+');
  let low: number;
  let high: number;
  if (hyphen === -1 && plus === -1) {
    low = high = atoi(text);
  } else if (hyphen !== -1 && plus === -1) {
    low = atoi(text.slice(0, hyphen));
    high = atoi(text.slice(hyphen + 1));
  } else if (plus !== -1 && hyphen === -1) {
    low = atoi(text.slice(0, plus));
    high = low + atoi(text.slice(plus + 1));
  } else {
    throw new Error(`unable to parse port range: ${text}`);
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${text}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${text}`);
  return newNodePortRange(low, 1 + high - low);
}

export function nodePortRangeContains(r: NodePortRange, port: number): boolean {
  return port >= r.base && port - r.base < r.size;
}

/** Errors of portallocator.Allocate/AllocateNext with their exact Go texts. */
export class PortAllocatorError extends Error {
  constructor(
    readonly kind: 'NotInRange' | 'Allocated' | 'Full',
    message: string,
  ) {
    super(message);
    this.name = 'PortAllocatorError';
  }
}

/** PortAllocator.Allocate. Throws PortAllocatorError (ErrNotInRange / ErrAllocated). */
export function allocatePort(r: NodePortRange, port: number, isTaken: (port: number) => boolean): void {
  if (!nodePortRangeContains(r, port)) {
    throw new PortAllocatorError('NotInRange', `provided port is not in the valid range. The range of valid ports is ${r.text}`);
  }
  if (isTaken(port)) throw new PortAllocatorError('Allocated', 'provided port is already allocated');
}

/** PortAllocator.AllocateNext: a random free port (upper band first). Throws PortAllocatorError('Full'). */
export function allocateNextPort(r: NodePortRange, isTaken: (port: number) => boolean, random: () => number): number {
  const offset = randomScanWithOffset(r.size, r.staticBand, (o) => isTaken(r.base + o), random);
  if (offset === null) throw new PortAllocatorError('Full', 'range is full');
  return r.base + offset;
}
