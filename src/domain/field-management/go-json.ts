// Go's encoding/json text for the plain values field management serialises: list-map keys and
// set values inside FieldsV1 keys, manager identifiers, the last-applied annotation. Map keys
// are sorted (Go sorts map[string]interface{}), strings are HTML-escaped like json.Marshal.
import { goJsonString } from '../codec/go-json-string';
import { compareGoStrings } from '../go-string-order';

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
