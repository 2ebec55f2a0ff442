import fc from 'fast-check';
import { fieldsV1Json, fieldsV1ToFieldSet } from './fields-v1';
import { compareFieldPaths, fieldPath, fieldPathToString } from './field-path';
import { FieldSet } from './field-set';
import { fieldElement, indexElement, keyElement, type PathElement, valueElement } from './path-element';

const name = fc.constantFrom('spec', 'ports', 'port', 'protocol', 'metadata', 'labels', 'a<b', 'é', '𝔘', 'type', '');
const scalar = fc.oneof(fc.integer({ min: -5, max: 70000 }), fc.constantFrom('TCP', 'UDP', 'Ready', '"q"', '\u2028', 'x&y'), fc.boolean());

const arbitraryElement: fc.Arbitrary<PathElement> = fc.oneof(
  { weight: 4, arbitrary: name.map(fieldElement) },
  {
    weight: 2,
    arbitrary: fc
      .uniqueArray(fc.tuple(fc.constantFrom('port', 'protocol', 'type', 'uid'), scalar), { minLength: 1, maxLength: 2, selector: (t) => t[0] })
      .map((pairs) => keyElement(pairs.map(([n, value]) => ({ name: n, value })))),
  },
  { weight: 1, arbitrary: scalar.map(valueElement) },
  { weight: 1, arbitrary: fc.nat({ max: 3 }).map(indexElement) },
);

const arbitraryPath = fc.array(arbitraryElement, { minLength: 1, maxLength: 4 });

const arbitraryFieldSet: fc.Arbitrary<FieldSet> = fc.array(arbitraryPath, { maxLength: 12 }).map((paths) => FieldSet.of(...paths));

const has = (set: FieldSet, path: PathElement[]) => set.has(path);

describe('FieldSet', () => {
  it('given paths inserted in any order, when listed, then members come before subtrees in element order', () => {
    const set = FieldSet.of(fieldPath('spec', 'type'), fieldPath('metadata', 'labels', 'app'), fieldPath('spec'), fieldPath('apiVersion'));
    expect(set.paths().map(fieldPathToString)).toEqual(['.apiVersion', '.spec', '.metadata.labels.app', '.spec.type']);
    expect(set.size()).toBe(4);
  });

  it('given .spec and .spec.type, when .spec is removed, then difference keeps .spec.type but recursiveDifference does not', () => {
    const set = FieldSet.of(fieldPath('spec'), fieldPath('spec', 'type'), fieldPath('status', 'conditions'));
    const spec = FieldSet.of(fieldPath('spec'));
    expect(set.difference(spec).paths().map(fieldPathToString)).toEqual(['.spec.type', '.status.conditions']);
    expect(set.recursiveDifference(spec).paths().map(fieldPathToString)).toEqual(['.status.conditions']);
  });

  it('given a set with a member that also has children, when leaves are taken, then only childless members remain', () => {
    const set = FieldSet.of(fieldPath('spec', 'ports'), fieldPath('spec', 'ports', 'x'), fieldPath('spec', 'type'));
    expect(set.leaves().paths().map(fieldPathToString)).toEqual(['.spec.type', '.spec.ports.x']);
  });

  it('given the empty path, when inserted, then nothing is added (SMD ignores it)', () => {
    expect(FieldSet.of([]).isEmpty()).toBe(true);
  });

  const sets = fc.tuple(arbitraryFieldSet, arbitraryFieldSet, arbitraryFieldSet);

  it('property: union is commutative, associative and idempotent; the empty set is neutral', () => {
    fc.assert(
      fc.property(sets, ([a, b, c]) => {
        expect(a.union(b).equals(b.union(a))).toBe(true);
        expect(
          a
            .union(b)
            .union(c)
            .equals(a.union(b.union(c))),
        ).toBe(true);
        expect(a.union(a).equals(a)).toBe(true);
        expect(a.union(FieldSet.EMPTY).equals(a)).toBe(true);
      }),
    );
  });

  it('property: membership follows the set laws for union, intersection and difference', () => {
    fc.assert(
      fc.property(sets, arbitraryPath, ([a, b], p) => {
        expect(has(a.union(b), p)).toBe(has(a, p) || has(b, p));
        expect(has(a.intersection(b), p)).toBe(has(a, p) && has(b, p));
        expect(has(a.difference(b), p)).toBe(has(a, p) && !has(b, p));
      }),
    );
  });

  it('property: (a − b) ∪ (a ∩ b) = a, a − a is empty, and a ∩ b ⊆ a', () => {
    fc.assert(
      fc.property(sets, ([a, b]) => {
        expect(a.difference(b).union(a.intersection(b)).equals(a)).toBe(true);
        expect(a.difference(a).isEmpty()).toBe(true);
        expect(a.intersection(b).difference(a).isEmpty()).toBe(true);
      }),
    );
  });

  it('property: recursiveDifference drops exactly the paths under a removed member', () => {
    fc.assert(
      fc.property(sets, arbitraryPath, ([a, b], p) => {
        const underRemoved = p.some((_, i) => has(b, p.slice(0, i + 1)));
        expect(has(a.recursiveDifference(b), p)).toBe(has(a, p) && !underRemoved);
      }),
    );
  });

  it('property: paths() lists every path once, in lexical order within a level, and rebuilds the set', () => {
    fc.assert(
      fc.property(arbitraryFieldSet, (a) => {
        const paths = a.paths();
        expect(paths.every((p) => a.has(p))).toBe(true);
        expect(FieldSet.of(...paths).equals(a)).toBe(true);
        const members = paths.filter((p) => p.length === 1);
        expect([...members].sort(compareFieldPaths)).toEqual(members);
        expect(paths.length).toBe(a.size());
      }),
    );
  });

  it('property: any set written as FieldsV1 and read back is the same set, and re-written byte for byte', () => {
    fc.assert(
      fc.property(arbitraryFieldSet, (set) => {
        const text = fieldsV1Json(set);
        const back = fieldsV1ToFieldSet(JSON.parse(text));
        expect(back.equals(set)).toBe(true);
        expect(fieldsV1Json(back)).toBe(text);
      }),
    );
  });
});
