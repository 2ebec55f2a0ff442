import fc from 'fast-check';
import { allocateIP, allocateNextIP, ipOffset, IPAllocatorError, kubernetesServiceIP, newIPFamilyRange, parseClusterIPRange, rangeForFamily } from './cluster-ip-range';
import { parseCIDR } from '../net/ip';

const range = (cidr: string) => newIPFamilyRange(parseCIDR(cidr)!);
const none = () => false;

describe('parseClusterIPRange', () => {
  it('parses a single-stack range', () => {
    const r = parseClusterIPRange('10.96.0.0/12');
    expect(r.primary.familyName).toBe('IPv4');
    expect(r.primary.cidrText).toBe('10.96.0.0/12');
    expect(r.secondary).toBeUndefined();
  });

  it('parses dual-stack, primary first, and masks sloppy input', () => {
    const r = parseClusterIPRange('fd00::5/108, 10.96.0.1/12');
    expect(r.primary.familyName).toBe('IPv6');
    expect(r.primary.cidrText).toBe('fd00::/108');
    expect(r.secondary?.cidrText).toBe('10.96.0.0/12');
    expect(rangeForFamily(r, 'IPv4')).toBe(r.secondary);
    expect(rangeForFamily(r, 'IPv6')).toBe(r.primary);
  });

  it.each([
    ['bogus', 'service IP range[0] is not a valid CIDR: bogus'],
    ['10.0.0.0/8', 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12'],
    ['fd00::/64', 'specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108'],
    ['10.0.0.0/24,10.1.0.0/24', '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family'],
    ['10.0.0.0/24,fd00::/120,10.1.0.0/24', '--service-cluster-ip-range must not contain more than two entries'],
  ])('rejects %s', (text, message) => {
    expect(() => parseClusterIPRange(text)).toThrow(message);
  });

  it('gives default/kubernetes the first address', () => {
    expect(kubernetesServiceIP(parseClusterIPRange('10.96.0.0/12'))).toBe('10.96.0.1');
    expect(kubernetesServiceIP(parseClusterIPRange('fd00::/108'))).toBe('fd00::1');
  });
});

describe('bitmap geometry (ipallocator.New / calculateRangeOffset)', () => {
  it.each([
    // cidr, allocatable addresses, static band
    ['10.0.0.0/24', 254, 16],
    ['10.96.0.0/12', (1 << 20) - 2, 256],
    ['10.0.0.0/28', 14, 0],
    ['10.0.0.0/27', 30, 16],
    ['10.0.0.0/30', 2, 0],
    ['10.0.0.0/31', 0, 0],
    ['10.0.0.0/32', 0, 0],
    ['fd00::/120', 255, 16], // v6 keeps the last address
    ['fd00::/108', 65535, 256], // v6 bitmap capped at 65536
    ['fd00::/112', 65535, 256],
    ['fd00::/128', 0, 0],
  ])('%s → max %d, static band %d', (cidr, max, band) => {
    const r = range(cidr);
    expect(r.max).toBe(max);
    expect(r.staticBand).toBe(band);
  });

  it('excludes the network and (v4) broadcast addresses', () => {
    const r = range('10.0.0.0/24');
    expect(ipOffset(r, '10.0.0.0')).toBeNull();
    expect(ipOffset(r, '10.0.0.1')).toBe(0);
    expect(ipOffset(r, '10.0.0.254')).toBe(253);
    expect(ipOffset(r, '10.0.0.255')).toBeNull();
    expect(ipOffset(r, '10.0.1.1')).toBeNull();
    expect(ipOffset(r, '::1')).toBeNull();
    const v6 = range('fd00::/120');
    expect(ipOffset(v6, 'fd00::')).toBeNull();
    expect(ipOffset(v6, 'fd00::ff')).toBe(254);
  });
});

describe('allocateIP (Range.Allocate)', () => {
  const r = range('10.96.0.0/12');

  it('reserves a requested IP and returns its canonical form', () => {
    expect(allocateIP(r, '010.096.000.010', none)).toBe('10.96.0.10');
  });

  it('rejects an IP outside the range with the upstream text', () => {
    expect(() => allocateIP(r, '1.1.1.1', none)).toThrow('the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12');
    expect(() => allocateIP(r, '10.96.0.0', none)).toThrow(IPAllocatorError);
    expect(() => allocateIP(r, '10.111.255.255', none)).toThrow('not in the valid range');
  });

  it('rejects a taken IP', () => {
    expect(() => allocateIP(r, '10.96.0.10', (ip) => ip === '10.96.0.10')).toThrow('provided IP is already allocated');
  });
});

describe('allocateNextIP (randomScanStrategyWithOffset)', () => {
  const r = range('10.0.0.0/24'); // offsets 0..253, static band 0..15

  it('starts in the upper band at rand.Intn(max - band)', () => {
    expect(allocateNextIP(r, none, () => 0)).toBe('10.0.0.17'); // offset 16
    expect(allocateNextIP(r, none, () => 0.999999)).toBe('10.0.0.254'); // offset 253
  });

  it('scans forward and wraps inside the upper band', () => {
    const taken = new Set(['10.0.0.254']);
    expect(
      allocateNextIP(
        r,
        (ip) => taken.has(ip),
        () => 0.999999,
      ),
    ).toBe('10.0.0.17');
  });

  it('falls back to the lower band only when the upper one is full', () => {
    const upperFull = (ip: string) => Number(ip.split('.')[3]) >= 17;
    expect(allocateNextIP(r, upperFull, () => 0)).toBe('10.0.0.1');
    const allButFive = (ip: string) => ip !== '10.0.0.5';
    expect(allocateNextIP(r, allButFive, () => 0.5)).toBe('10.0.0.5');
  });

  it('reports a full range', () => {
    expect(() =>
      allocateNextIP(
        r,
        () => true,
        () => 0.3,
      ),
    ).toThrow('range is full');
    expect(() => allocateNextIP(range('10.0.0.0/32'), none, () => 0.3)).toThrow('range is full');
  });

  it('property: never hands out a taken IP, stays in range, fills the range exactly', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('10.0.0.0/28', '10.0.0.0/27', '10.0.0.0/26', 'fd00::/122'),
        fc.array(fc.tuple(fc.boolean(), fc.double({ min: 0, max: 0.9999999, noNaN: true })), { maxLength: 200 }),
        (cidr, steps) => {
          const rr = range(cidr);
          const held: string[] = [];
          for (const [release, rnd] of steps) {
            if (release && held.length > 0) {
              held.splice(Math.floor(rnd * held.length), 1);
              continue;
            }
            const taken = new Set(held);
            if (held.length === rr.max) {
              expect(() =>
                allocateNextIP(
                  rr,
                  (ip) => taken.has(ip),
                  () => rnd,
                ),
              ).toThrow('range is full');
              continue;
            }
            const ip = allocateNextIP(
              rr,
              (x) => taken.has(x),
              () => rnd,
            );
            expect(taken.has(ip)).toBe(false);
            expect(ipOffset(rr, ip)).not.toBeNull();
            held.push(ip);
          }
        },
      ),
    );
  });
});
