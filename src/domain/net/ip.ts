// IP address parsing and formatting with the semantics Kubernetes uses: k8s.io/utils/net
// ParseIPSloppy / ParseCIDRSloppy (a fork of Go 1.16 net.ParseIP that accepts IPv4 octets with
// leading zeros as decimal) and Go's net.IP.String() for the canonical text form.

export type IPFamily = 4 | 6;

export interface ParsedIP {
  family: IPFamily;
  value: bigint;
}

export interface ParsedCIDR {
  family: IPFamily;
  /** The masked network address (Go's IPNet.IP). */
  base: bigint;
  prefix: number;
}

/** Go's dtoi: leading decimal digits of s; fails on none or once the value reaches 0xFFFFFF. */
function dtoi(s: string): { n: number; c: number } | null {
  let n = 0;
  let i = 0;
  for (; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= 0xffffff) return null;
  }
  return i === 0 ? null : { n, c: i };
}

/** Go's xtoi: leading hex digits of s, same limits as dtoi. */
function xtoi(s: string): { n: number; c: number } | null {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const d = parseInt(s[i], 16);
    if (Number.isNaN(d)) break;
    n = n * 16 + d;
    if (n >= 0xffffff) return null;
  }
  return i === 0 ? null : { n, c: i };
}

/**
 * parseIPv4 of the k8s.io/utils forked Go 1.16 net package: d.d.d.d, each octet decimal ≤ 255,
 * leading zeros allowed and read as decimal ("010" is 10, issue k8s#100895).
 */
function parseIPv4(text: string): bigint | null {
  let s = text;
  let value = 0n;
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return null;
    if (i > 0) {
      if (s[0] !== '.') return null;
      s = s.slice(1);
    }
    const d = dtoi(s);
    if (!d || d.n > 0xff) return null;
    s = s.slice(d.c);
    value = (value << 8n) | BigInt(d.n);
  }
  return s.length === 0 ? value : null;
}

/** parseIPv6 of the same fork (RFC 4291 text, optional trailing dotted quad). */
function parseIPv6(text: string): bigint | null {
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  let s = text;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return 0n;
  }
  let i = 0;
  while (i < 16) {
    const x = xtoi(s);
    if (!x || x.n > 0xffff) return null;
    if (x.c < s.length && s[x.c] === '.') {
      if (ellipsis < 0 && i !== 12) return null;
      if (i + 4 > 16) return null;
      const v4 = parseIPv4(s);
      if (v4 === null) return null;
      ip[i] = Number((v4 >> 24n) & 0xffn);
      ip[i + 1] = Number((v4 >> 16n) & 0xffn);
      ip[i + 2] = Number((v4 >> 8n) & 0xffn);
      ip[i + 3] = Number(v4 & 0xffn);
      s = '';
      i += 4;
      break;
    }
    ip[i] = x.n >> 8;
    ip[i + 1] = x.n & 0xff;
    i += 2;
    s = s.slice(x.c);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return null;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return null;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return null;
  if (i < 16) {
    if (ellipsis < 0) return null;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    // An ellipsis must stand for at least one zero group.
    return null;
  }
  let value = 0n;
  for (const b of ip) value = (value << 8n) | BigInt(b);
  return value;
}

/**
 * netutils.ParseIPSloppy. An IPv4-mapped IPv6 address ("::ffff:1.2.3.4") is IPv4 to Go
 * (To4() succeeds), so it reports family 4, exactly like utilnet.IsIPv4.
 */
export function parseIP(text: string): ParsedIP | null {
  for (const ch of text) {
    if (ch === '.') {
      const v = parseIPv4(text);
      return v === null ? null : { family: 4, value: v };
    }
    if (ch === ':') {
      const v = parseIPv6(text);
      if (v === null) return null;
      if (v >> 32n === 0xffffn) return { family: 4, value: v & 0xffffffffn };
      return { family: 6, value: v };
    }
  }
  return null;
}

/**
 * netutils.ParseCIDRSloppy: "<ip>/<decimal prefix>", base masked to the prefix. The family is
 * the textual one (a v4-mapped v6 address with a /128-style prefix stays a v6 network).
 */
export function parseCIDR(text: string): ParsedCIDR | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const addr = text.slice(0, slash);
  const mask = text.slice(slash + 1);
  let family: IPFamily = 4;
  let value = parseIPv4(addr);
  if (value === null) {
    family = 6;
    value = parseIPv6(addr);
  }
  const d = dtoi(mask);
  const bits = family === 4 ? 32 : 128;
  if (value === null || !d || d.c !== mask.length || d.n > bits) return null;
  return { family, base: value & prefixMask(family, d.n), prefix: d.n };
}

/** The netmask for a prefix length as a bigint. */
export function prefixMask(family: IPFamily, prefix: number): bigint {
  const bits = BigInt(family === 4 ? 32 : 128);
  const all = (1n << bits) - 1n;
  return (all << (bits - BigInt(prefix))) & all;
}

/**
 * Go's net.IP.String(): dotted quad for v4 and for v4-mapped v6 (To4() succeeds), otherwise
 * RFC 5952 (netip string6: longest run of ≥2 zero groups, first on ties, lower-case hex).
 */
export function formatIP(family: IPFamily, value: bigint): string {
  if (family === 4) {
    return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  }
  if (value >> 32n === 0xffffn) {
    return formatIP(4, value & 0xffffffffn);
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  // Longest run of ≥2 zero groups, first one on ties.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (bestLen < 2) return groups.map((g) => g.toString(16)).join(':');
  const head = groups
    .slice(0, bestStart)
    .map((g) => g.toString(16))
    .join(':');
  const tail = groups
    .slice(bestStart + bestLen)
    .map((g) => g.toString(16))
    .join(':');
  return `${head}::${tail}`;
}

/** The canonical form of an IP text, or null when it does not parse. */
export function canonicalIP(text: string): string | null {
  const ip = parseIP(text);
  return ip ? formatIP(ip.family, ip.value) : null;
}

/** utilnet.IsIPv4String. */
export function isIPv4(text: string): boolean {
  return parseIP(text)?.family === 4;
}

/** utilnet.IsIPv6String. */
export function isIPv6(text: string): boolean {
  return parseIP(text)?.family === 6;
}

/** The CIDR in canonical text form, as Go's IPNet.String() prints it. */
export function formatCIDR(cidr: ParsedCIDR): string {
  return `${formatIP(cidr.family, cidr.base)}/${cidr.prefix}`;
}

/** Number of addresses in the CIDR (2^(bits-prefix)). */
export function cidrSize(cidr: ParsedCIDR): bigint {
  return 1n << BigInt((cidr.family === 4 ? 32 : 128) - cidr.prefix);
}

/** IPNet.Contains for an already parsed IP (families must match). */
export function cidrContains(cidr: ParsedCIDR, ip: ParsedIP): boolean {
  if (cidr.family !== ip.family) return false;
  return (ip.value & prefixMask(cidr.family, cidr.prefix)) === cidr.base;
}

/** The last address of the CIDR (broadcast for IPv4). */
export function cidrLast(cidr: ParsedCIDR): bigint {
  return cidr.base + cidrSize(cidr) - 1n;
}
