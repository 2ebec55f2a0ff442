import { ifNoneMatchHits } from './entity-tag';

describe('If-None-Match', () => {
  it('matches the tag among others, weak or strong, and *', () => {
    expect(ifNoneMatchHits('"A"', '"A"')).toBe(true);
    expect(ifNoneMatchHits('"B", W/"A"', '"A"')).toBe(true);
    expect(ifNoneMatchHits('*', '"A"')).toBe(true);
    expect(ifNoneMatchHits(['"B"', '"A"'], '"A"')).toBe(true);
  });

  it('misses other tags and an absent header', () => {
    expect(ifNoneMatchHits('"B"', '"A"')).toBe(false);
    expect(ifNoneMatchHits('A', '"A"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"A"')).toBe(false);
  });
});
