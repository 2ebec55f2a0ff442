// The set of fields a value sets (typed/tofieldset.go): what an Apply manager owns. Leaves and
// atomic lists/maps are members; granular maps and lists contribute their entries and items
// (list items are members themselves, `".": {}`); a struct's own path is only a member when
// it is null or `{}`.
import { type FieldPath } from './field-path';
import { type FieldSet, FieldSetBuilder } from './field-set';
import { isJsonMap } from './go-json';
import { childType, isNamedField, type MergeType, resolveType } from './merge-type';
import { listItemElement } from './list-item-element';
import { fieldElement, type PathElement, serializePathElement } from './path-element';

export function toFieldSet(value: unknown, type: MergeType): FieldSet {
  const b = new FieldSetBuilder();
  visit(value, type, [], b);
  return b.build();
}

function visit(value: unknown, declared: MergeType, path: PathElement[], out: FieldSetBuilder): void {
  const type = resolveType(declared, value);
  switch (type.kind) {
    case 'scalar':
    case 'deduced':
      out.insert(path);
      return;
    case 'list': {
      if (type.listType === 'atomic') {
        out.insert(path);
        return;
      }
      if (!Array.isArray(value)) return;
      const elements = value.map((item) => listItemElement(type, item));
      const seen = new Set<string>();
      const duplicates = new Set<string>();
      for (const pe of elements) {
        if (typeof pe === 'string') continue;
        const key = serializePathElement(pe);
        if (seen.has(key) && !duplicates.has(key)) {
          out.insert([...path, pe]);
          duplicates.add(key);
        }
        seen.add(key);
      }
      elements.forEach((pe, i) => {
        if (typeof pe === 'string' || duplicates.has(serializePathElement(pe))) return;
        const itemPath = [...path, pe];
        visit(value[i], type.element, itemPath, out);
        out.insert(itemPath);
      });
      return;
    }
    case 'struct':
    case 'map': {
      if (type.atomic) {
        out.insert(path);
        return;
      }
      if (!isJsonMap(value)) return;
      for (const key of Object.keys(value)) {
        const child = value[key];
        if (child === undefined) continue;
        const childPath: FieldPath = [...path, fieldElement(key)];
        visit(child, childType(type, key), childPath as PathElement[], out);
        if (child === null || (isJsonMap(child) && Object.keys(child).length === 0) || !isNamedField(type, key)) out.insert(childPath);
      }
      return;
    }
  }
}
