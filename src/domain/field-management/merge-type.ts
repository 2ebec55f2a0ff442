// The merge schema: how each part of an object merges, compares and is owned. It mirrors
// structured-merge-diff's schema atoms (schema/elements.go): scalars are leaves; structs and
// maps are granular unless atomic; lists are atomic, sets (`v:` items) or list-maps (`k:` items).
// `deduced` stands for SMD's `__untyped_deduced_` type used for fields outside the schema.
import { FieldSet, type FieldSetChild } from './field-set';

export type MergeType =
  | { readonly kind: 'scalar' }
  | {
      readonly kind: 'struct';
      readonly name: string;
      readonly fields: ReadonlyMap<string, MergeType>;
      readonly atomic: boolean;
    }
  | { readonly kind: 'map'; readonly element: MergeType; readonly atomic: boolean }
  | {
      readonly kind: 'list';
      readonly element: MergeType;
      readonly listType: 'atomic' | 'set' | 'map';
      /** list-map key fields (x-kubernetes-list-map-keys). */
      readonly keys: readonly string[];
      /** OpenAPI defaults of key fields: a missing `protocol` keys as "TCP". */
      readonly keyDefaults: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'deduced' };

export const SCALAR: MergeType = { kind: 'scalar' };
export const DEDUCED: MergeType = { kind: 'deduced' };

/** The type of a struct field or map entry (SMD: the field's type, else the map's element type). */
export function childType(type: MergeType, name: string): MergeType {
  if (type.kind === 'struct') return type.fields.get(name) ?? DEDUCED;
  if (type.kind === 'map') return type.element;
  return DEDUCED;
}

/** True when `name` is a declared struct field (its own path is only owned when null or `{}`). */
export function isNamedField(type: MergeType, name: string): boolean {
  return type.kind === 'struct' && type.fields.has(name);
}

/** Resolves `deduced` by the value's shape, as SMD's deduced type does. */
export function resolveType(type: MergeType, value: unknown): MergeType {
  if (type.kind !== 'deduced') return type;
  if (Array.isArray(value)) return { kind: 'list', element: DEDUCED, listType: 'atomic', keys: [], keyDefaults: {} };
  if (typeof value === 'object' && value !== null) return { kind: 'map', element: DEDUCED, atomic: false };
  return SCALAR;
}

/**
 * Adds every child that is a declared struct field as a member of its level
 * (fieldpath.Set.EnsureNamedFieldsAreMembers), so that pruning can remove a whole struct.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, type: MergeType): FieldSet {
  if (set.isEmpty()) return set;
  const extra = set.children.filter((c) => c.element.kind === 'field' && isNamedField(type, c.element.name)).map((c) => c.element);
  const children: FieldSetChild[] = set.children.map((c) => {
    let t: MergeType = DEDUCED;
    if (c.element.kind === 'field') t = childType(type, c.element.name);
    else if (c.element.kind === 'key' && type.kind === 'list') t = type.element;
    return { element: c.element, set: ensureNamedFieldsAreMembers(c.set, t) };
  });
  const withMembers = FieldSet.fromParts(set.members, children);
  return extra.length === 0 ? withMembers : withMembers.union(FieldSet.fromParts(extra, []));
}
