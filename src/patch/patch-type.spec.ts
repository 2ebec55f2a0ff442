import { patchTypeOf } from './patch-type';

describe('patchTypeOf (handlers/patch.go content-type check)', () => {
  it.each([
    ['application/json-patch+json', 'json'],
    ['application/merge-patch+json', 'merge'],
    ['application/strategic-merge-patch+json', 'strategic'],
    ['application/apply-patch+yaml', 'apply'],
    ['application/merge-patch+json; charset=utf-8', 'merge'],
    ['application/json-patch+json;charset=UTF-8', 'json'],
  ])('%s → %s', (contentType, expected) => {
    expect(patchTypeOf(contentType)).toBe(expected);
  });

  it.each([
    [undefined],
    [''],
    ['application/json'],
    ['application/apply-patch+cbor'],
    ['text/plain'],
    [';application/merge-patch+json'],
    ['Application/Merge-Patch+JSON'],
    ['application/merge-patch+json ;charset=utf-8'],
  ])('%s → 415', (contentType) => {
    expect(patchTypeOf(contentType)).toBeUndefined();
  });
});
