import fc from 'fast-check';
import { canonicalIP, cidrContains, cidrLast, cidrSize, formatCIDR, formatIP, isIPv4, isIPv6, parseCIDR, parseIP } from './ip';

describe('parseIP (netutils.ParseIPSloppy)', () => {
  it.each([
    ['1.2.3.4', 4, 0x01020304n],
    ['0.0.0.0', 4, 0n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['010.001.0.01', 4, 0x0a010001n], // leading zeros read as decimal
    ['0000000010.0.0.1', 4, 0x0a000001n],
    ['::ffff:1.2.3.4', 4, 0x01020304n], // v4-mapped is IPv4 to Go
    ['::ffff:102:304', 4, 0x01020304n],
    ['::', 6, 0n],
    ['::1', 6, 1n],
    ['2001:db8::1', 6, 0x20010db8000000000000000000000001n],
    ['2001:DB8::1', 6, 0x20010db8000000000000000000000001n],
    ['1:2:3:4:5:6:7::', 6, 0x00010002000300040005000600070000n],
    ['::1.2.3.4', 6, 0x01020304n],
    ['1:2:3:4:5:6:1.2.3.4', 6, 0x00010002000300040005000601020304n],
    ['00001::', 6, 0x00010000000000000000000000000000n], // Go 1.16 xtoi allows >4 hex digits
  ])('%s', (text, family, value) => {
    expect(parseIP(text)).toEqual({ family, value });
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.-4',
    '1..2.3',
    '1.2.3.4 ',
    ' 1.2.3.4',
    'a.b.c.d',
    'abc',
    ':',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7:8::',
    '::1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:',
    ':1::',
    '10000::',
    '1:2:3:4:5:1.2.3.4', // dotted quad in the wrong place without ellipsis
    '1:2:3:4:5:6:7:1.2.3.4',
    '::1.2.3',
    '1.2.3.4/24',
    'fe80::1%eth0',
  ])('rejects %j', (text) => {
    expect(parseIP(text)).toBeNull();
  });

  it('isIPv4/isIPv6', () => {
    expect(isIPv4('10.0.0.1')).toBe(true);
    expect(isIPv4('::ffff:10.0.0.1')).toBe(true);
    expect(isIPv4('::1')).toBe(false);
    expect(isIPv6('::1')).toBe(true);
    expect(isIPv6('10.0.0.1')).toBe(false);
    expect(isIPv6('bogus')).toBe(false);
    expect(isIPv4('bogus')).toBe(false);
  });
});

describe('formatIP (net.IP.String)', () => {
  it.each([
    [4, 0x0a000001n, '10.0.0.1'],
    [6, 0n, '::'],
    [6, 1n, '::1'],
    [6, 0x20010db8000000000000000000000001n, '2001:db8::1'],
    [6, 0x20010db8000000010000000000000001n, '2001:db8:0:1::1'],
    [6, 0x20010db8000000010001000100010001n, '2001:db8:0:1:1:1:1:1'], // single zero group not compressed
    [6, 0x20010000000000010000000000000001n, '2001:0:0:1::1'], // longest run wins
    [6, 0x20010000000000010000000000010001n, '2001::1:0:0:1:1'], // first run on ties
    [6, 0x00010002000300040005000600070000n, '1:2:3:4:5:6:7:0'],
    [6, 0xffff01020304n, '1.2.3.4'], // v4-mapped prints dotted
    [6, 0xfd000000000000000000000000000000n, 'fd00::'],
  ] as const)('%s %s → %s', (family, value, text) => {
    expect(formatIP(family, value)).toBe(text);
  });

  it('canonicalIP', () => {
    expect(canonicalIP('010.0.0.1')).toBe('10.0.0.1');
    expect(canonicalIP('2001:DB8:0:0::1')).toBe('2001:db8::1');
    expect(canonicalIP('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(canonicalIP('x')).toBeNull();
  });

  it('round-trips every v6 value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (v) => {
        const parsed = parseIP(formatIP(6, v));
        expect(parsed).not.toBeNull();
        if (v >> 32n === 0xffffn) expect(parsed).toEqual({ family: 4, value: v & 0xffffffffn });
        else expect(parsed).toEqual({ family: 6, value: v });
      }),
    );
  });

  it('round-trips every v4 value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 0xffffffffn }), (v) => {
        expect(parseIP(formatIP(4, v))).toEqual({ family: 4, value: v });
      }),
    );
  });
});

describe('parseCIDR (netutils.ParseCIDRSloppy)', () => {
  it('masks the base address', () => {
    expect(parseCIDR('10.96.0.1/12')).toEqual({ family: 4, base: 0x0a600000n, prefix: 12 });
    expect(parseCIDR('010.96.0.0/012')).toEqual({ family: 4, base: 0x0a600000n, prefix: 12 });
    expect(parseCIDR('fd00::5/108')).toEqual({ family: 6, base: 0xfd000000000000000000000000000000n, prefix: 108 });
    expect(parseCIDR('0.0.0.0/0')).toEqual({ family: 4, base: 0n, prefix: 0 });
    expect(parseCIDR('1.2.3.4/32')).toEqual({ family: 4, base: 0x01020304n, prefix: 32 });
  });

  it.each(['10.0.0.0', '10.0.0.0/33', '10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/+8', '10.0.0.0/8 ', '::/129', 'x/8', '/8'])('rejects %j', (text) => {
    expect(parseCIDR(text)).toBeNull();
  });

  it('contains, size, last, format', () => {
    const c = parseCIDR('10.96.0.0/12')!;
    expect(formatCIDR(c)).toBe('10.96.0.0/12');
    expect(cidrSize(c)).toBe(1n << 20n);
    expect(formatIP(4, cidrLast(c))).toBe('10.111.255.255');
    expect(cidrContains(c, parseIP('10.100.1.1')!)).toBe(true);
    expect(cidrContains(c, parseIP('10.112.0.0')!)).toBe(false);
    expect(cidrContains(c, parseIP('::1')!)).toBe(false);
  });
});
