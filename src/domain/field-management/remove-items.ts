// Remove the given fields, map entries and list items from a value (typed/remove.go), used by
// apply to prune what a manager stopped applying. Like SMD, a map or list left empty becomes
// null; the caller's decode turns those into absent fields.
import { type FieldSet } from './field-set';
import { isJsonMap } from './go-json';
import { childType, type MergeType, resolveType } from './merge-type';
import { listItemElement } from './list-item-element';
import { fieldElement } from './path-element';

export function removeItems(value: unknown, toRemove: FieldSet, type: MergeType): unknown {
  const t = resolveType(type, value);
  switch (t.kind) {
    case 'scalar':
    case 'deduced':
      return value;
    case 'list': {
      if (!Array.isArray(value) || value.length === 0 || t.listType === 'atomic') return null;
      const out: unknown[] = [];
      for (const item of value) {
        const pe = listItemElement(t, item);
        if (typeof pe === 'string') {
          out.push(item);
          continue;
        }
        if (toRemove.has([pe])) continue;
        const sub = toRemove.withPrefix(pe);
        out.push(sub.isEmpty() ? item : removeItems(item, sub, t.element));
      }
      return out.length > 0 ? out : null;
    }
    case 'struct':
    case 'map': {
      if (!isJsonMap(value) || Object.keys(value).length === 0 || t.atomic) return null;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (value[key] === undefined) continue;
        const pe = fieldElement(key);
        if (toRemove.has([pe])) continue;
        const sub = toRemove.withPrefix(pe);
        out[key] = sub.isEmpty() ? value[key] : removeItems(value[key], sub, childType(t, key));
      }
      return Object.keys(out).length > 0 ? out : null;
    }
  }
}
