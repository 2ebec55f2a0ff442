// IP / CIDR field validators: apimachinery pkg/util/validation IsValidIP / IsValidCIDR (v1.32,
// sloppy parsing) and core validation.ValidateNonSpecialIP.
import { type FieldError, fieldErrors } from '../errors/field-error';
import { parseCIDR, parseIP, type ParsedIP } from '../net/ip';

export const INVALID_IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const INVALID_CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** validation.IsValidIP */
export function validateIP(path: string, value: string): FieldError[] {
  return parseIP(value) ? [] : [fieldErrors.invalid(path, value, INVALID_IP_MSG)];
}

/** validation.IsValidCIDR */
export function validateCIDR(path: string, value: string): FieldError[] {
  return parseCIDR(value) ? [] : [fieldErrors.invalid(path, value, INVALID_CIDR_MSG)];
}

function inV4(ip: ParsedIP, base: bigint, prefix: number): boolean {
  return ip.family === 4 && ip.value >> BigInt(32 - prefix) === base >> BigInt(32 - prefix);
}

function inV6(ip: ParsedIP, base: bigint, prefix: number): boolean {
  return ip.family === 6 && ip.value >> BigInt(128 - prefix) === base >> BigInt(128 - prefix);
}

/**
 * core validation.ValidateNonSpecialIP: Go's net.IP IsUnspecified / IsLoopback /
 * IsLinkLocalUnicast / IsLinkLocalMulticast (ff02::/16 with any flags nibble, as Go checks
 * `ip[1]&0x0f == 0x02`). The unspecified message echoes the input text.
 */
export function validateNonSpecialIP(path: string, value: string): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [fieldErrors.invalid(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (ip.value === 0n) errs.push(fieldErrors.invalid(path, value, `may not be unspecified (${value})`));
  if (inV4(ip, 127n << 24n, 8) || (ip.family === 6 && ip.value === 1n)) {
    errs.push(fieldErrors.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  }
  if (inV4(ip, (169n << 24n) | (254n << 16n), 16) || inV6(ip, 0xfe80n << 112n, 10)) {
    errs.push(fieldErrors.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  const v6LinkLocalMulticast = ip.family === 6 && ip.value >> 120n === 0xffn && ((ip.value >> 112n) & 0x0fn) === 0x02n;
  if (inV4(ip, 224n << 24n, 24) || v6LinkLocalMulticast) {
    errs.push(fieldErrors.invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}
