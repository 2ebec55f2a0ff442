// FieldsV1, the JSON trie kube-apiserver stores in managedFields[].fieldsV1
// (fieldpath/serialize.go): `f:`/`k:`/`v:`/`i:` keys in element order, `{}` for a leaf and
// `".": {}` first for a node that is owned itself and also has children. The object built here
// keeps that key order, so JSON.stringify of it is byte-for-byte kube's text except for Go's
// HTML escaping, which fieldsV1Json adds.
import { FieldSet, type FieldSetChild } from './field-set';
import { isJsonMap } from './go-json';
import { comparePathElements, deserializePathElement, FieldsV1DecodeError, type PathElement, serializePathElement } from './path-element';

export type FieldsV1 = Record<string, unknown>;

export function fieldSetToFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  if (includeSelf && !set.isEmpty()) out['.'] = {};
  const { members, children } = set;
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const c = mi >= members.length ? 1 : ci >= children.length ? -1 : comparePathElements(members[mi], children[ci].element);
    if (c < 0) out[serializePathElement(members[mi++])] = {};
    else if (c > 0) {
      const child = children[ci++];
      out[serializePathElement(child.element)] = emit(child.set, false);
    } else {
      mi++;
      const child = children[ci++];
      out[serializePathElement(child.element)] = emit(child.set, true);
    }
  }
  return out;
}

/** The exact bytes kube-apiserver writes for a set (json-iterator with Go's HTML escaping). */
export function fieldsV1Json(set: FieldSet): string {
  return JSON.stringify(fieldSetToFieldsV1(set)).replace(/[<>&\u2028\u2029]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** Reads a FieldsV1 value (fieldpath.Set.FromJSON). Throws FieldsV1DecodeError when unreadable. */
export function fieldsV1ToFieldSet(fields: unknown): FieldSet {
  if (fields === null || fields === undefined) return FieldSet.EMPTY;
  if (!isJsonMap(fields)) throw new FieldsV1DecodeError('ReadMapCB: expect { or n');
  return read(fields).children ?? FieldSet.EMPTY;
}

function read(node: Record<string, unknown>): { children: FieldSet | undefined; isMember: boolean } {
  let isMember = false;
  const members: PathElement[] = [];
  const children: FieldSetChild[] = [];
  for (const key of Object.keys(node)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    const pe = deserializePathElement(key);
    if (!pe) continue;
    const value = node[key];
    if (value !== null && !isJsonMap(value)) throw new FieldsV1DecodeError('ReadMapCB: expect { or n');
    const sub = value === null ? { children: undefined, isMember: true } : read(value);
    if (sub.isMember) members.push(pe);
    if (sub.children) children.push({ element: pe, set: sub.children });
  }
  members.sort(comparePathElements);
  children.sort((a, b) => comparePathElements(a.element, b.element));
  const set = FieldSet.fromParts(dedupe(members), children);
  if (set.isEmpty()) return { children: undefined, isMember: true };
  return { children: set, isMember };
}

function dedupe(sorted: PathElement[]): PathElement[] {
  return sorted.filter((pe, i) => i === 0 || comparePathElements(sorted[i - 1], pe) !== 0);
}
