// Mirrors Go's *json.SyntaxError: the message is exactly encoding/json's, `offset` is the
// number of UTF-8 bytes read before the error (as Go's SyntaxError.Offset).

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** encoding/json scanner.go quoteChar: the offending *byte*, quoted Go-style in single quotes. */
export function quoteScannerByte(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  // Go quotes string(rune(byte)): bytes >= 0x80 show as the Latin-1 rune of the same value.
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u00${c.toString(16).padStart(2, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}
