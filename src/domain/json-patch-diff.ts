// The RFC 6902 JSON patch from one revision of a Service to the next. fast-json-patch's compare()
// diffs objects and arrays below the root; the root itself (a create from nothing, a delete to
// nothing, or a change of type) is one whole-document operation, which compare() gets wrong.
import { compare, type Operation } from 'fast-json-patch';

export type JsonPatch = Operation[];

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

export function jsonPatchBetween(previous: unknown, next: unknown): JsonPatch {
  if (previous === null || previous === undefined) return next === null || next === undefined ? [] : [{ op: 'add', path: '', value: next }];
  if (next === null || next === undefined) return [{ op: 'replace', path: '', value: null }];
  if (!isContainer(previous) || !isContainer(next) || Array.isArray(previous) !== Array.isArray(next)) {
    return JSON.stringify(previous) === JSON.stringify(next) ? [] : [{ op: 'replace', path: '', value: next }];
  }
  return compare(previous, next);
}

/**
 * The patch of one write as the change log serves it (JSON text), from the stored JSON of the
 * Service's previous revision (null before a create) and of the revision the write produced (null
 * after a delete): what the revisions projection stores once per write.
 */
export function jsonPatchText(previousJson: string | null, nextJson: string | null): string {
  // A create's patch is the whole object: spliced as stored, not parsed and encoded again.
  if (previousJson === null) return nextJson === null ? '[]' : `[{"op":"add","path":"","value":${nextJson}}]`;
  if (nextJson === null) return DELETED_PATCH;
  return JSON.stringify(jsonPatchBetween(JSON.parse(previousJson), JSON.parse(nextJson)));
}

/**
 * jsonPatchText when the caller holds the revisions as the objects their stored JSON was encoded
 * from (JSON.stringify of `previous` is the previous revision's text; a bulk fold): the same text,
 * without parsing both revisions back from it.
 */
export function jsonPatchTextOfObjects(previous: object | null, next: object | null, nextJson: string | null): string {
  if (previous === null) return jsonPatchText(null, nextJson);
  if (next === null) return DELETED_PATCH;
  return JSON.stringify(jsonPatchBetween(previous, next));
}

/** A delete's patch (no revision row holds it: a delete writes none). */
export const DELETED_PATCH = JSON.stringify(jsonPatchBetween({}, null));
