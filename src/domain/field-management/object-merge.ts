// Merge an applied configuration into the live object by the schema (typed/merge.go with
// ruleKeepRHS): the configuration wins at every leaf and atomic value, granular maps merge
// key by key, list-maps and sets merge item by item keeping live order around the
// configuration's items.
import { isJsonMap } from './go-json';
import { childType, type MergeType, resolveType } from './merge-type';
import { listItemElement, type ListType } from './list-item-element';
import { type PathElement, pathElementToString, serializePathElement } from './path-element';

/** The applied configuration cannot be merged (SMD validation error text, e.g. duplicate keys). */
export class MergeValidationError extends Error {}

/** `undefined` = absent. Returns undefined when both sides are absent. */
export function mergeObjects(lhs: unknown, rhs: unknown, type: MergeType): unknown {
  return merge(lhs, rhs, type, '');
}

function merge(lhs: unknown, rhs: unknown, declared: MergeType, where: string): unknown {
  if (lhs === undefined && rhs === undefined) return undefined;
  const type = resolveType(declared, rhs === undefined ? lhs : rhs);
  const leaf = () => (rhs !== undefined ? rhs : lhs);
  switch (type.kind) {
    case 'scalar':
    case 'deduced':
      return leaf();
    case 'list': {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if (type.listType === 'atomic' || ((l === undefined || l.length === 0) && (r === undefined || r.length === 0))) return leaf();
      return mergeListItems(type, l ?? [], r ?? [], where);
    }
    case 'struct':
    case 'map': {
      const l = isJsonMap(lhs) ? lhs : undefined;
      const r = isJsonMap(rhs) ? rhs : undefined;
      const empty = (m: Record<string, unknown> | undefined) => m === undefined || Object.keys(m).length === 0;
      if (type.atomic || (empty(l) && empty(r))) return leaf();
      const out: Record<string, unknown> = {};
      for (const key of new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})])) {
        const v = merge(l?.[key], r?.[key], childType(type, key), `${where}.${key}`);
        if (v !== undefined) out[key] = v;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
  }
}

interface Indexed {
  readonly pes: PathElement[];
  readonly keys: string[];
  readonly items: unknown[];
  readonly observed: Map<string, unknown>;
}

function index(type: ListType, list: readonly unknown[], allowDuplicates: boolean, where: string): Indexed {
  const out: Indexed = { pes: [], keys: [], items: [], observed: new Map() };
  const errors: string[] = [];
  list.forEach((item, i) => {
    const pe = listItemElement(type, item);
    if (typeof pe === 'string') {
      errors.push(`${where}: element ${i}: ${pe}`);
      return;
    }
    const key = serializePathElement(pe);
    if (out.observed.has(key)) {
      if (!allowDuplicates) {
        errors.push(`${where}: duplicate entries for key ${pathElementToString(pe)}`);
        return;
      }
      // A duplicated live item merges as null, as SMD's PathElementValueMap does.
      out.observed.set(key, null);
    } else out.observed.set(key, item);
    out.pes.push(pe);
    out.keys.push(key);
    out.items.push(item);
  });
  if (errors.length > 0) throw new MergeValidationError(errors.join('\n'));
  return out;
}

/**
 * SMD's list merge order: walk live and applied items together; shared items follow the
 * applied order, live-only items stay where they were, applied-only items come in place.
 */
function mergeListItems(type: ListType, lhs: readonly unknown[], rhs: readonly unknown[], where: string): unknown {
  const r = index(type, rhs, false, where);
  const l = index(type, lhs, true, where);
  const sharedOrder = r.keys.filter((k) => l.observed.has(k));
  let nextShared = sharedOrder.shift();
  const mergedRhs = new Set<string>();
  const out: unknown[] = [];
  const push = (v: unknown) => {
    if (v !== undefined) out.push(v);
  };
  const itemWhere = (pe: PathElement) => where + pathElementToString(pe);
  let li = 0;
  let ri = 0;
  while (li < l.keys.length || ri < r.keys.length) {
    if (li < l.keys.length && ri < r.keys.length) {
      const key = l.keys[li];
      if (key === r.keys[ri]) {
        mergedRhs.add(key);
        push(merge(l.observed.get(key), r.observed.get(key), type.element, itemWhere(l.pes[li])));
        li++;
        ri++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (r.observed.has(key) && nextShared !== undefined && nextShared !== key) {
        li++;
        continue;
      }
    }
    if (li < l.keys.length) {
      const key = l.keys[li];
      if (!r.observed.has(key)) {
        push(merge(l.items[li], undefined, type.element, itemWhere(l.pes[li])));
        li++;
        continue;
      } else if (mergedRhs.has(key)) li++;
    }
    if (ri < r.keys.length) {
      const key = r.keys[ri];
      mergedRhs.add(key);
      push(merge(l.observed.has(key) ? l.observed.get(key) : undefined, r.observed.get(key), type.element, itemWhere(r.pes[ri])));
      ri++;
      if (nextShared !== undefined && nextShared === key) nextShared = sharedOrder.shift();
    }
  }
  return out.length > 0 ? out : undefined;
}
