// A large JSON body written as one Buffer straight from its pieces (a list's head and its stored
// items). Joining them into one string first would copy the body three more times on the V8 heap
// (the join, the flattening Buffer.byteLength does, the conversion when the socket writes it),
// garbage a busy LIST turns into hundreds of megabytes between two collections.

/** The UTF-8 of `pieces` one after another, in one Buffer. */
export function utf8Pieces(pieces: readonly string[]): Buffer {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8');
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += out.write(piece, at, 'utf8');
  return out;
}
