import fc from 'fast-check';
import { utf8Pieces } from './utf8-pieces';

describe('utf8Pieces', () => {
  // Pieces are JSON texts, which never hold a lone surrogate (JSON.stringify escapes them).
  it('given any well-formed pieces (multi-byte, astral, empty), when written, then the bytes are those of the joined text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constant(''), fc.constant('{"k":"é😀"}'))), (pieces) => {
        expect(utf8Pieces(pieces).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
      }),
    );
  });

  it('given sliced pieces of a larger text, when written, then only the slices are written', () => {
    const text = '{"kind":"Service","apiVersion":"v1","metadata":{"name":"ü"}}';
    expect(utf8Pieces(['[', '{', text.slice(36), ']']).toString('utf8')).toBe(`[{${text.slice(36)}]`);
  });
});
