// sameJson must agree with comparing the JSON texts, for every pair of JSON-shaped values the
// decider could compare: equal ones, reordered ones, ones with undefined members, and unrelated.
import fc from 'fast-check';
import { sameJson } from './json-equality';

const byText = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** JSON values plus what JSON.stringify drops or rewrites: undefined members, NaN, -0, Infinity. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, undefined, true, false, 0, -0, 1, NaN, Infinity, '', 'a', 'b'),
    fc.string({ maxLength: 3 }),
    fc.integer({ min: -3, max: 3 }),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** A variant of `v` that is often equal by text: a deep copy, keys possibly reordered, a leaf possibly changed. */
function variant(v: unknown, reorder: boolean, change: unknown, path: number): unknown {
  if (Array.isArray(v)) return v.map((x, i) => variant(x, reorder, change, i === path % Math.max(1, v.length) ? path >> 1 : -1));
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    const ordered = reorder ? [...keys].reverse() : keys;
    const out: Record<string, unknown> = {};
    for (const [i, k] of ordered.entries()) out[k] = variant((v as Record<string, unknown>)[k], reorder, change, i === path % Math.max(1, keys.length) ? path >> 1 : -1);
    return out;
  }
  return path === 0 ? change : v;
}

describe('sameJson', () => {
  it('agrees with comparing JSON.stringify texts, for related and unrelated values', () => {
    fc.assert(
      fc.property(value, value, fc.boolean(), value, fc.integer({ min: -1, max: 64 }), (a, other, reorder, change, path) => {
        const b = variant(a, reorder, change, path);
        expect(sameJson(a, b)).toBe(byText(a, b));
        expect(sameJson(a, other)).toBe(byText(a, other));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts key order, drops undefined members, and writes undefined array elements as null', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ x: undefined, a: 1 }, { a: 1, y: undefined })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson(NaN, null)).toBe(true);
    expect(sameJson(-0, 0)).toBe(true);
  });

  it('compares what is not plain data through its JSON text', () => {
    const when = new Date('2026-01-01T00:00:00Z');
    expect(sameJson({ t: when }, { t: '2026-01-01T00:00:00.000Z' })).toBe(true);
    expect(sameJson({ t: '2026-01-01T00:00:00.000Z' }, { t: when })).toBe(true);
    expect(sameJson({ t: when }, { t: new Date(0) })).toBe(false);
  });
});
