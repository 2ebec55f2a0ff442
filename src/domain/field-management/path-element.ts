// One step of a field path (structured-merge-diff fieldpath.PathElement): a struct or map field
// `f:name`, a list-map item by its key fields `k:{"port":80,"protocol":"TCP"}`, a set item by its
// value `v:"finalizer"`, or an atomic-list index `i:0`. Order: field < key < value < index.
import { goJsonString } from '../codec/go-json-string';
import { compareGoStrings } from '../go-string-order';
import { goJsonMarshal, isJsonMap } from './go-json';
import { compareValues, valueToString } from './field-value';

export interface KeyField {
  readonly name: string;
  readonly value: unknown;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  /** Key fields sorted by name. */
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'index'; readonly index: number };

export const fieldElement = (name: string): PathElement => ({ kind: 'field', name });
export const valueElement = (value: unknown): PathElement => ({ kind: 'value', value });
export const indexElement = (index: number): PathElement => ({ kind: 'index', index });

/** A key element; the fields are sorted by name as SMD's FieldList.Sort does. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareGoStrings(a.name, b.name)) };
}

const KIND_RANK = { field: 0, key: 1, value: 2, index: 3 } as const;

function compareKeyFields(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const cn = compareGoStrings(a[i].name, b[i].name);
    if (cn !== 0) return cn;
    const cv = compareValues(a[i].value, b[i].value);
    if (cv !== 0) return cv;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_RANK[a.kind] < KIND_RANK[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareGoStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeyFields(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index === j ? 0 : a.index < j ? -1 : 1;
    }
  }
}

/** How an element prints in conflict messages: `.name`, `[port=80,protocol="TCP"]`, `[="x"]`, `[0]`. */
export function pathElementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return '.' + pe.name;
    case 'key':
      return '[' + pe.fields.map((f) => `${f.name}=${valueToString(f.value)}`).join(',') + ']';
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

// Elements are immutable, so their serialised keys and parsed forms can be shared: every write
// re-reads and re-writes all managedFields entries, and the same few keys recur.
const serialized = new WeakMap<PathElement, string>();
const parsed = new Map<string, PathElement | undefined>();
const PARSED_CACHE_LIMIT = 4096;

/** The FieldsV1 key of an element (fieldpath.SerializePathElement). */
export function serializePathElement(pe: PathElement): string {
  if (pe.kind === 'field') return 'f:' + pe.name;
  let key = serialized.get(pe);
  if (key === undefined) {
    key = serializeUncached(pe);
    serialized.set(pe, key);
  }
  return key;
}

function serializeUncached(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return 'f:' + pe.name;
    case 'key':
      return 'k:{' + pe.fields.map((f) => goJsonString(f.name) + ':' + goJsonMarshal(f.value)).join(',') + '}';
    case 'value':
      return 'v:' + goJsonMarshal(pe.value);
    case 'index':
      return 'i:' + String(pe.index);
  }
}

/** Thrown for a FieldsV1 key that cannot be read (Go: the FieldsV1 fails to decode). */
export class FieldsV1DecodeError extends Error {}

/**
 * Reads a FieldsV1 key (fieldpath.DeserializePathElement). Returns undefined for an unknown
 * element type, which SMD drops silently so that newer formats survive older servers.
 */
export function deserializePathElement(key: string): PathElement | undefined {
  if (key.startsWith('f:')) return fieldElement(key.slice(2));
  if (parsed.has(key)) return parsed.get(key);
  const pe = deserializeUncached(key);
  if (parsed.size >= PARSED_CACHE_LIMIT) parsed.clear();
  parsed.set(key, pe);
  return pe;
}

function deserializeUncached(key: string): PathElement | undefined {
  if (key.length < 2) throw new FieldsV1DecodeError('key must be 2 characters long:');
  if (key[1] !== ':') throw new FieldsV1DecodeError(`missing colon: ${key}`);
  const rest = key.slice(2);
  switch (key[0]) {
    case 'f':
      return fieldElement(rest);
    case 'v':
      return valueElement(parseJson(rest));
    case 'k': {
      const parsed = parseJson(rest);
      if (!isJsonMap(parsed)) throw new FieldsV1DecodeError(`invalid key element: ${key}`);
      return keyElement(Object.keys(parsed).map((name) => ({ name, value: parsed[name] })));
    }
    case 'i': {
      if (!/^[+-]?[0-9]+$/.test(rest)) throw new FieldsV1DecodeError(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      return indexElement(Number(rest));
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new FieldsV1DecodeError((e as Error).message);
  }
}
