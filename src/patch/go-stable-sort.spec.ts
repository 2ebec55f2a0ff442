import fc from 'fast-check';
import { goSliceStable } from './go-stable-sort';

describe('goSliceStable (sort.SliceStable)', () => {
  it('sorts stably like any stable sort when less is a strict weak order (incl. > 20 items, symMerge)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ k: fc.integer({ min: 0, max: 5 }), id: fc.nat() }), { maxLength: 90 }), (items) => {
        const ours = [...items];
        goSliceStable(ours, (i, j) => ours[i].k < ours[j].k);
        const expected = [...items].sort((a, b) => a.k - b.k); // Array.prototype.sort is stable
        expect(ours).toEqual(expected);
      }),
    );
  });

  it('with an always-true less (items missing from the order list), insertion sort reverses', () => {
    const data = ['a', 'b', 'c'];
    goSliceStable(data, () => true);
    expect(data).toEqual(['c', 'b', 'a']);
  });
});
