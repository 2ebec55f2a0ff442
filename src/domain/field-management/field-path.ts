// A field path (fieldpath.Path): the elements from the object root to one field, printed in
// conflict messages as `.spec.ports[port=80,protocol="TCP"].targetPort`.
import { comparePathElements, fieldElement, type PathElement, pathElementToString } from './path-element';

export type FieldPath = readonly PathElement[];

export function fieldPathToString(path: FieldPath): string {
  return path.map(pathElementToString).join('');
}

/** Lexical order; a prefix sorts first. */
export function compareFieldPaths(a: FieldPath, b: FieldPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = comparePathElements(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** `fieldPath('metadata', 'labels', 'app')`: a path of struct/map field names. */
export function fieldPath(...names: string[]): FieldPath {
  return names.map(fieldElement);
}
