import type { StructSchema } from './go-schema';
import { placeMembers, unknownMembersOf } from './unknown-members';

const schema: StructSchema = {
  name: 'Example',
  goName: 'v1.Example',
  fields: ['first', 'second', 'third'].map((json) => ({ json, goField: json, type: { kind: 'string', goName: 'string' }, omitempty: true, pointer: false })),
};

describe('unknown members of a struct', () => {
  it('given a level with members the schema does not know, then each is read with the known member before it (null before any)', () => {
    expect(unknownMembersOf(schema, { zero: 0, first: 'a', newer: { n: 1 }, newest: [], third: 'c' })).toEqual([
      { after: null, key: 'zero', value: 0 },
      { after: 'first', key: 'newer', value: { n: 1 } },
      { after: 'first', key: 'newest', value: [] },
    ]);
  });

  it("given the known member an unknown one followed is absent, then the unknown one keeps that member's slot", () => {
    const unknown = [{ after: 'second', key: 'newer', value: 1 }];
    expect(Object.keys(placeMembers(schema, { third: 'c', first: 'a' }, unknown))).toEqual(['first', 'newer', 'third']);
    expect(Object.keys(placeMembers(schema, { third: 'c', second: 'b', first: 'a' }, unknown))).toEqual(['first', 'second', 'newer', 'third']);
  });

  it('given keys of `known` the schema does not have, then they are left out: only the unknown members given are placed', () => {
    expect(placeMembers(schema, { first: 'a', stale: 1 }, [{ after: null, key: 'fresh', value: 2 }])).toEqual({ fresh: 2, first: 'a' });
  });

  it('given an unknown member named __proto__ (an own key of JSON.parse), then it is an own member, never the prototype', () => {
    const level = JSON.parse('{"first":"a","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const placed = placeMembers(schema, level, unknownMembersOf(schema, level));
    expect(JSON.stringify(placed)).toBe('{"first":"a","__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(placed)).toBe(Object.prototype);
  });
});
