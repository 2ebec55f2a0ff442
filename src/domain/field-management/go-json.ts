// Go's encoding/json text for the plain values field management serialises: list-map keys and
// set values inside FieldsV1 keys, manager identifiers, the last-applied annotation. Map keys
// are sorted (Go sorts map[string]interface{}), strings are HTML-escaped like json.Marshal.
import { goJsonString } from '../codec/go-json-string';

/** Go sorts map keys as UTF-8 byte strings, which is code point order. */
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

export function isJsonMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** json.Marshal of an interface{} tree: compact, sorted map keys, HTML-escaped strings. */
export function goJsonMarshal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return '[' + value.map(goJsonMarshal).join(',') + ']';
  if (isJsonMap(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort(compareGoStrings);
    return '{' + keys.map((k) => goJsonString(k) + ':' + goJsonMarshal(value[k])).join(',') + '}';
  }
  return 'null';
}
