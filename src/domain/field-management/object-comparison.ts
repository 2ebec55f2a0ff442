// Compare two versions of an object by the schema (typed/compare.go): which fields the new one
// added, modified or removed. A granular map or list that appears or disappears is itself
// added/removed (that is the `".": {}` of `f:ports` in a creator's entry); atomic values and
// scalars are compared whole.
import { type FieldSet, FieldSetBuilder } from './field-set';
import { isJsonMap } from './go-json';
import { valuesEqual } from './field-value';
import { childType, type MergeType, resolveType } from './merge-type';
import { listItemElement } from './list-item-element';
import { fieldElement, type PathElement, serializePathElement } from './path-element';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Sink {
  readonly added: FieldSetBuilder;
  readonly modified: FieldSetBuilder;
  readonly removed: FieldSetBuilder;
}

/** `undefined` means absent; `null` is a value. */
export function compareObjects(lhs: unknown, rhs: unknown, type: MergeType): Comparison {
  const sink: Sink = { added: new FieldSetBuilder(), modified: new FieldSetBuilder(), removed: new FieldSetBuilder() };
  compare(lhs, rhs, type, [], sink);
  return { added: sink.added.build(), modified: sink.modified.build(), removed: sink.removed.build() };
}

/** The reset-field filter applied to all three sets (Comparison.FilterFields with an exclude set). */
export function excludeFromComparison(c: Comparison, exclude: FieldSet): Comparison {
  if (exclude.isEmpty()) return c;
  return {
    added: c.added.recursiveDifference(exclude),
    modified: c.modified.recursiveDifference(exclude),
    removed: c.removed.recursiveDifference(exclude),
  };
}

function compare(lhs: unknown, rhs: unknown, declared: MergeType, path: PathElement[], sink: Sink): void {
  const type = resolveType(declared, rhs === undefined ? lhs : rhs);
  let inLeaf = false;
  const doLeaf = () => {
    inLeaf = true;
    if (lhs === undefined) sink.added.insert(path);
    else if (rhs === undefined) sink.removed.insert(path);
    else if (!valuesEqual(lhs, rhs)) sink.modified.insert(path);
  };
  switch (type.kind) {
    case 'scalar':
    case 'deduced':
      doLeaf();
      break;
    case 'list': {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if (type.listType === 'atomic' || ((l === undefined || l.length === 0) && (r === undefined || r.length === 0))) doLeaf();
      else compareListItems(type, l ?? [], r ?? [], path, sink);
      break;
    }
    case 'struct':
    case 'map': {
      const l = isJsonMap(lhs) ? lhs : undefined;
      const r = isJsonMap(rhs) ? rhs : undefined;
      const empty = (m: Record<string, unknown> | undefined) => m === undefined || Object.keys(m).length === 0;
      if (type.atomic || (empty(l) && empty(r))) doLeaf();
      else {
        const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
        for (const key of keys) {
          const lv = l?.[key];
          const rv = r?.[key];
          if (lv === undefined && rv === undefined) continue;
          compare(lv, rv, childType(type, key), [...path, fieldElement(key)], sink);
        }
      }
      break;
    }
  }
  if (!inLeaf) {
    if (lhs === undefined) sink.added.insert(path);
    else if (rhs === undefined) sink.removed.insert(path);
  }
}

function compareListItems(type: Extract<MergeType, { kind: 'list' }>, lhs: readonly unknown[], rhs: readonly unknown[], path: PathElement[], sink: Sink): void {
  const order: { key: string; pe: PathElement }[] = [];
  const lValues = new Map<string, unknown[]>();
  const rValues = new Map<string, unknown[]>();
  const index = (items: readonly unknown[], into: Map<string, unknown[]>, other?: Map<string, unknown[]>) => {
    for (const item of items) {
      const pe = listItemElement(type, item);
      if (typeof pe === 'string') continue;
      const key = serializePathElement(pe);
      const existing = into.get(key);
      if (existing) existing.push(item);
      else {
        into.set(key, [item]);
        if (!other || !other.has(key)) order.push({ key, pe });
      }
    }
  };
  index(lhs, lValues);
  index(rhs, rValues, lValues);
  for (const { key, pe } of order) {
    const l = lValues.get(key) ?? [];
    const r = rValues.get(key) ?? [];
    const itemPath = [...path, pe];
    if (l.length <= 1 && r.length <= 1) compare(l[0], r[0], type.element, itemPath, sink);
    else if (l.length >= 2 && r.length >= 2) {
      // Duplicates before and after: compared as if atomic.
      if (l.length !== r.length || !l.every((v, i) => valuesEqual(v, r[i]))) sink.modified.insert(itemPath);
    } else if (l.length >= 2) {
      if (r.length !== 0) compare(undefined, r[0], type.element, itemPath, sink);
      sink.removed.insert(itemPath);
    } else {
      if (l.length !== 0) compare(l[0], undefined, type.element, itemPath, sink);
      sink.added.insert(itemPath);
    }
  }
}
