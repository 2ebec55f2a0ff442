import { type FieldError } from '../errors/field-error';
import { validateCIDR, validateIP, validateNonSpecialIP } from './ip.validation';

const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('IP validators', () => {
  it.each<[string, FieldError[], string[]]>([
    ['IPv4', validateIP('f', '10.0.0.1'), []],
    ['sloppy IPv4', validateIP('f', '010.000.0.1'), []],
    ['IPv6', validateIP('f', '2001:db8::1'), []],
    ['not an IP', validateIP('f', '10.0.0'), ['f: Invalid value: "10.0.0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    ['CIDR', validateCIDR('f', '10.0.0.0/8'), []],
    ['CIDR with host bits', validateCIDR('f', '10.0.0.1/8'), []],
    ['not a CIDR', validateCIDR('f', '10.0.0.1'), ['f: Invalid value: "10.0.0.1": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
    ['ordinary IP', validateNonSpecialIP('f', '192.0.2.1'), []],
    ['multicast outside link-local', validateNonSpecialIP('f', '224.0.1.1'), []],
    ['v4-mapped loopback', validateNonSpecialIP('f', '::ffff:127.0.0.1'), ['f: Invalid value: "::ffff:127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['unparsable', validateNonSpecialIP('f', 'x'), ['f: Invalid value: "x": must be a valid IP address']],
  ])('%s', (_name, errs, expected) => {
    expect(lines(errs)).toEqual(expected);
  });
});
