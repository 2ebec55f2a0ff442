// Go's order of strings (sort.Strings, sorted map keys in encoding/json, fmt and protobuf): byte
// order of their UTF-8, which is code point order. JavaScript compares UTF-16 code units, which
// differs between surrogate pairs and U+E000..U+FFFF; this compares without encoding.

/** Negative, zero or positive as `a` sorts before, with or after `b` in Go. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order differs from code point order only between surrogates and U+E000..U+FFFF.
    if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
    if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
