// Go's strconv.Quote (used by `%q`): printable runes kept, everything else escaped.
// Used for strict-decoding paths (`unknown field "spec.foo"`) and scheme error texts.

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

export function strconvQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === ' ' || (code > 0x7e ? PRINTABLE.test(ch) : code > 0x20 && code < 0x7f)) out += ch;
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\v') out += '\\v';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else if (code < 0x10000) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += '\\U' + code.toString(16).padStart(8, '0');
  }
  return out + '"';
}
