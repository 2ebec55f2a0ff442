import type { StructSchema } from './go-schema';
import { structKeyOrder } from './struct-key-order';

const schema: StructSchema = {
  name: 'Example',
  goName: 'v1.Example',
  fields: ['first', 'second', 'third'].map((json) => ({ json, goField: json, type: { kind: 'string', goName: 'string' }, omitempty: true, pointer: false })),
};
const inOrder = structKeyOrder(schema);

describe('structKeyOrder', () => {
  it('given keys already in struct order (some absent), then the same object comes back, not a copy', () => {
    const obj = { first: 'a', third: 'c' };
    expect(inOrder(obj)).toBe(obj);
  });

  it('given a key added out of place, then a new object in struct order shares the values and leaves the input as it was', () => {
    const nested = { deep: true };
    const obj = Object.freeze({ third: nested, first: 'a' });
    const out = inOrder(obj) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['first', 'third']);
    expect(out.third).toBe(nested);
    expect(Object.keys(obj)).toEqual(['third', 'first']);
  });

  it('given keys the struct does not have, then each stays right after the known key it followed, whichever way the known keys move', () => {
    expect(Object.keys(inOrder({ extra: 1, second: 'b', first: 'a', other: 2 }))).toEqual(['extra', 'first', 'other', 'second']);
    // In order apart from them: the object itself.
    const ordered = { first: 'a', newer: 1, third: 'c' };
    expect(inOrder(ordered)).toBe(ordered);
  });
});
