// The path element of a list item (typed/helpers.go listItemToPathElement): list-map items by
// their key fields (a missing key takes its schema default), set items by their value.
import { isJsonMap } from './go-json';
import { type MergeType } from './merge-type';
import { keyElement, type KeyField, type PathElement, valueElement } from './path-element';

export type ListType = Extract<MergeType, { kind: 'list' }>;

/** Returns the element, or an error text (the item then takes no part, as in SMD). */
export function listItemElement(list: ListType, item: unknown): PathElement | string {
  if (list.listType === 'atomic') return 'invalid indexing of non-associative list';
  if (list.keys.length > 0) {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isJsonMap(item)) return 'associative list with keys may not have non-map elements';
    const fields: KeyField[] = [];
    for (const name of list.keys) {
      if (Object.prototype.hasOwnProperty.call(item, name) && item[name] !== undefined) fields.push({ name, value: item[name] });
      else if (list.keyDefaults[name] !== undefined) fields.push({ name, value: list.keyDefaults[name] });
    }
    if (fields.length === 0) {
      return `associative list with keys has an element that omits all key fields [${list.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`;
    }
    return keyElement(fields);
  }
  if (isJsonMap(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return valueElement(item);
}
