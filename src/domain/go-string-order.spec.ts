import fc from 'fast-check';
import { compareGoStrings } from './go-string-order';

const sign = (n: number) => Math.sign(n);
const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe("Go's string order", () => {
  it('given ASCII strings, when compared, then they sort as bytes do (a prefix first)', () => {
    expect(['b', 'a', 'ab', 'B', ''].sort(compareGoStrings)).toEqual(['', 'B', 'a', 'ab', 'b']);
  });

  it('given a character past U+FFFF and one in U+E000..U+FFFF, when compared, then code point order wins over UTF-16 order', () => {
    const astral = '\u{1F600}'; // a surrogate pair in UTF-16, below U+E000 there
    const privateUse = '\uE000';
    expect(astral < privateUse).toBe(true); // what JavaScript's own comparison says
    expect(sign(compareGoStrings(astral, privateUse))).toBe(1);
    expect(sign(compareGoStrings(privateUse, astral))).toBe(-1);
  });

  it('for any two well-formed strings, the order is that of their UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(sign(compareGoStrings(a, b))).toBe(sign(utf8Order(a, b)));
      }),
      { numRuns: 2000 },
    );
  });
});
