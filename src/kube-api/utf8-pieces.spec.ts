import fc from 'fast-check';
import { JOINED_BODY_LIMIT, piecesBody, utf8Pieces } from './utf8-pieces';

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

  it('given pieces up to the limit, when made a body, then it is their joined text; past the limit, their UTF-8 in one Buffer', () => {
    const small = ['{"items":[', 'é'.repeat(JOINED_BODY_LIMIT - 12), ']}'];
    expect(piecesBody(small)).toBe(small.join(''));
    const large = [...small.slice(0, 2), 'x', ']}'];
    const body = piecesBody(large);
    expect(Buffer.isBuffer(body)).toBe(true);
    expect((body as Buffer).toString('utf8')).toBe(large.join(''));
  });
});
