// encoding/json's quoted string as json.Marshal writes it: escapeHTML on (<, >, & as \u003c…),
// U+2028/U+2029 escaped, and (Go ≥ 1.22) \b and \f written short.
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function goJsonString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const escaped = ESCAPES[ch];
    if (escaped !== undefined) out += escaped;
    else if (ch < ' ') out += '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}
