// The in-memory JSON value every patch algorithm works on: what Go decodes into interface{}.
// Objects are null-prototype records, so `__proto__`, `constructor` and friends are ordinary keys
// (a label may legitimately be called `constructor`) and can never reach Object.prototype.
import { type JsonValue } from '../domain/codec/json-value';

export type JsonTree = null | boolean | number | string | JsonTree[] | JsonMap;
export interface JsonMap {
  [key: string]: JsonTree;
}

export function newMap(): JsonMap {
  return Object.create(null) as JsonMap;
}

export function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasKey(map: JsonMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

/** A deep copy as null-prototype data; `undefined` members are skipped as JSON.stringify does. */
export function cloneTree(value: unknown): JsonTree {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : cloneTree(item)));
  if (typeof value === 'object') {
    const out = newMap();
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined && typeof member !== 'function') out[key] = cloneTree(member);
    }
    return out;
  }
  return null;
}

/**
 * reflect.TypeOf of the value Go's decoder would have produced with PreserveInts (the apiserver
 * decodes SMP bodies that way, and ToUnstructured gives int64 for integer fields). Integral JS
 * numbers stand for int64, others for float64: an integral literal written `80.0` is the one case
 * this cannot tell apart.
 */
export type GoDynamicType = 'nil' | 'string' | 'int64' | 'float64' | 'bool' | 'map' | 'slice';

export function goTypeOf(value: JsonTree): GoDynamicType {
  if (value === null) return 'nil';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return Array.isArray(value) ? 'slice' : 'map';
}

/** reflect.Type.String() for the dynamic types above. */
export function dynamicTypeName(type: GoDynamicType): string {
  switch (type) {
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    default:
      return type;
  }
}

/** Go's `==` on two interface{} values holding JSON scalars (maps and slices never compare equal here). */
export function goScalarEqual(a: JsonTree, b: JsonTree): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'object' || typeof b === 'object') return false;
  return goTypeOf(a) === goTypeOf(b) && a === b;
}

/** The codec's parsed JSON as a tree (Go's interface{} decoding: the last duplicate key wins). */
export function treeOf(json: JsonValue): JsonTree {
  switch (json.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
      return json.value;
    case 'number':
      return Number(json.text);
    case 'array':
      return json.items.map(treeOf);
    case 'object': {
      const out = newMap();
      for (const member of json.members) out[member.key] = treeOf(member.value);
      return out;
    }
  }
}
