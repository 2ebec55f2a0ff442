import fc from 'fast-check';
import { allocateNextPort, allocatePort, DEFAULT_SERVICE_NODE_PORT_RANGE, nodePortRangeContains, parseNodePortRange } from './node-port-range';

describe('parseNodePortRange (PortRange.Set)', () => {
  it.each([
    ['30000-32767', 30000, 2768, '30000-32767', 86],
    [' 30000-32767 ', 30000, 2768, '30000-32767', 86],
    ['30000+2767', 30000, 2768, '30000-32767', 86],
    ['30000', 30000, 1, '30000-30000', 0],
    ['30000-30015', 30000, 16, '30000-30015', 0],
    ['30000-30016', 30000, 17, '30000-30016', 16],
    ['20000-32767', 20000, 12768, '20000-32767', 128],
  ])('%j', (text, base, size, shown, band) => {
    const r = parseNodePortRange(text);
    expect(r).toEqual({ base, size, text: shown, staticBand: band });
  });

  it('defaults to 30000-32767', () => {
    expect(parseNodePortRange(DEFAULT_SERVICE_NODE_PORT_RANGE).text).toBe('30000-32767');
  });

  it.each([
    ['30000-80000', 'the port range cannot be greater than 65535: 30000-80000'],
    ['32767-30000', 'end port cannot be less than start port: 32767-30000'],
    ['1+2-3', 'unable to parse port range: 1+2-3'],
    ['abc', 'invalid syntax'],
  ])('rejects %j', (text, message) => {
    expect(() => parseNodePortRange(text)).toThrow(message);
  });
});

describe('port allocation', () => {
  const r = parseNodePortRange('30000-32767');
  const none = () => false;

  it('reserves requested ports and reports the upstream errors', () => {
    expect(() => allocatePort(r, 30080, none)).not.toThrow();
    expect(() => allocatePort(r, 80, none)).toThrow('provided port is not in the valid range. The range of valid ports is 30000-32767');
    expect(() => allocatePort(r, 32768, none)).toThrow('not in the valid range');
    expect(() => allocatePort(r, 30080, (p) => p === 30080)).toThrow('provided port is already allocated');
  });

  it('prefers the upper band (30086-32767) for random allocation', () => {
    expect(allocateNextPort(r, none, () => 0)).toBe(30086);
    expect(allocateNextPort(r, none, () => 0.9999999)).toBe(32767);
    expect(
      allocateNextPort(
        r,
        (p) => p >= 30086,
        () => 0,
      ),
    ).toBe(30000);
    expect(() =>
      allocateNextPort(
        r,
        () => true,
        () => 0,
      ),
    ).toThrow('range is full');
  });

  it('property: random allocate/release never hands out a taken port and stays in range', () => {
    const small = parseNodePortRange('30000-30040');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.double({ min: 0, max: 0.9999999, noNaN: true })), { maxLength: 200 }), (steps) => {
        const held = new Set<number>();
        for (const [release, rnd] of steps) {
          if (release && held.size > 0) {
            held.delete([...held][Math.floor(rnd * held.size)]);
            continue;
          }
          if (held.size === small.size) {
            expect(() =>
              allocateNextPort(
                small,
                (p) => held.has(p),
                () => rnd,
              ),
            ).toThrow('range is full');
            continue;
          }
          const port = allocateNextPort(
            small,
            (p) => held.has(p),
            () => rnd,
          );
          expect(held.has(port)).toBe(false);
          expect(nodePortRangeContains(small, port)).toBe(true);
          held.add(port);
        }
      }),
    );
  });
});
