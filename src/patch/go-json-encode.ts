// Go's json.Marshal text of a patched document, as kube-apiserver builds it for the BadValue of
// `patch: Invalid value: "<patched JSON>"`. evanphx/json-patch keeps untouched subtrees as raw
// bytes (compacted, original key order) and re-marshals every container it had to decode into a
// Go map (partialDoc), whose keys then come out sorted. Callers pass the set of such maps.
import { goJsonString } from '../domain/codec/go-json-string';
import { isMap, type JsonTree } from './json-tree';
import { compareGoStrings } from '../domain/go-string-order';

function goNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) >= 1e21) return BigInt(value).toString();
  // JS and Go switch to exponent form at the same thresholds (< 1e-6, >= 1e21).
  return String(value);
}

/** Compact JSON; maps in `sortedMaps` print their keys in byte order, the others in insertion order. */
export function encodeGoJson(value: JsonTree, sortedMaps: { has(value: object): boolean }): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'string') return goJsonString(value);
  if (Array.isArray(value)) return `[${value.map((item) => encodeGoJson(item, sortedMaps)).join(',')}]`;
  if (isMap(value)) {
    const keys = Object.keys(value);
    if (sortedMaps.has(value)) keys.sort(compareGoStrings);
    return `{${keys.map((k) => `${goJsonString(k)}:${encodeGoJson(value[k], sortedMaps)}`).join(',')}}`;
  }
  return 'null';
}
