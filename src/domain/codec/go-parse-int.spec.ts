import fc from 'fast-check';
import { parseGoInt64 } from './go-parse-int';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

describe('parseGoInt64 (strconv.ParseInt(s, 10, 64))', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    ['+42', 42],
    ['-42', -42],
    ['-0', 0],
    ['007', 7],
    ['9223372036854775807', Number(INT64_MAX)],
    ['-9223372036854775808', Number(INT64_MIN)],
  ])('given %j, it is %d', (text, value) => {
    expect(parseGoInt64(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['+', 'strconv.ParseInt: parsing "+": invalid syntax'],
    ['-', 'strconv.ParseInt: parsing "-": invalid syntax'],
    ['abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    [' 5', 'strconv.ParseInt: parsing " 5": invalid syntax'],
    ['5 ', 'strconv.ParseInt: parsing "5 ": invalid syntax'],
    ['0x10', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
    ['1_000', 'strconv.ParseInt: parsing "1_000": invalid syntax'],
    ['1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    ['1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['--1', 'strconv.ParseInt: parsing "--1": invalid syntax'],
    ['٣', 'strconv.ParseInt: parsing "٣": invalid syntax'],
    ['a"b\n', 'strconv.ParseInt: parsing "a\\"b\\n": invalid syntax'],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['-9223372036854775809', 'strconv.ParseInt: parsing "-9223372036854775809": value out of range'],
    // ParseUint stops at the first overflow of a uint64, before it reaches the bad character...
    ['99999999999999999999x', 'strconv.ParseInt: parsing "99999999999999999999x": value out of range'],
    // ... and a uint64 that has not overflowed yet meets the bad character first.
    ['18446744073709551615x', 'strconv.ParseInt: parsing "18446744073709551615x": invalid syntax'],
  ])('given %j, the error is %s', (text, message) => {
    expect(parseGoInt64(text)).toEqual({ ok: false, message });
  });

  it('reads every int64 written in decimal, with or without a plus sign', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), fc.boolean(), (n, plus) => {
        const text = plus && n >= 0n ? `+${n}` : String(n);
        expect(parseGoInt64(text)).toEqual({ ok: true, value: Number(n) + 0 });
      }),
    );
  });

  it('refuses every integer outside int64 as out of range', () => {
    const outside = fc.oneof(fc.bigInt({ min: INT64_MAX + 1n, max: 1n << 80n }), fc.bigInt({ min: -(1n << 80n), max: INT64_MIN - 1n }));
    fc.assert(
      fc.property(outside, (n) => {
        expect(parseGoInt64(String(n))).toEqual({ ok: false, message: `strconv.ParseInt: parsing "${n}": value out of range` });
      }),
    );
  });

  it('refuses a short number with anything but digits after its sign', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[+-]?\d{1,10}$/),
        fc.string({ minLength: 1, maxLength: 3 }).filter((s) => /\D/.test(s)),
        fc.stringMatching(/^\d{0,5}$/),
        (head, bad, tail) => {
          const outcome = parseGoInt64(head + bad + tail);
          expect(outcome.ok).toBe(false);
          expect(outcome.ok ? '' : outcome.message).toMatch(/: invalid syntax$/);
        },
      ),
    );
  });
});
