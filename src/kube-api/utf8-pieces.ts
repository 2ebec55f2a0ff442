// A JSON body made of pieces (a list's head and its stored items), sent without copying a large
// one on the V8 heap. Joining a large body into one string would copy it three more times there
// (the join, the flattening Buffer.byteLength does, the conversion when the socket writes it),
// garbage a busy LIST turns into hundreds of megabytes between two collections: it goes out as
// one Buffer written straight from the pieces. A small body (a page of a paginated LIST) is
// joined: Node writes a string body together with the response headers, one write and one TLS
// record, where a Buffer body is a second chunk of a writev (measured: ~8% more pages per second).

/** Bodies up to this many UTF-16 units are sent as a string: within one TLS record (16 KB) when ASCII. */
export const JOINED_BODY_LIMIT = 16 * 1024;

/** The body of `pieces`: joined when small, else their UTF-8 in one Buffer. */
export function piecesBody(pieces: readonly string[]): string | Buffer {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length <= JOINED_BODY_LIMIT ? pieces.join('') : utf8Pieces(pieces);
}

/** The UTF-8 of `pieces` one after another, in one Buffer. */
export function utf8Pieces(pieces: readonly string[]): Buffer {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8');
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += out.write(piece, at, 'utf8');
  return out;
}
