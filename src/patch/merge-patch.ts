// RFC 7386 JSON Merge Patch as kube-apiserver v1.32 applies it: handlers/patch.go applyJSPatch
// (strict pre-decode into map[string]interface{} unless fieldValidation=Ignore) then
// evanphx/json-patch v4 MergePatch (mergeDocs/merge/pruneNulls). Ported rather than delegated to
// json-merge-patch because that package stops at a `constructor`/`prototype` key (a legal label
// key) and does not prune nulls inside new values the way evanphx does.
import { BadRequestError } from '../domain/errors/domain-errors';
import { encodeGoJson } from './go-json-encode';
import { cloneTree, hasKey, isMap, type JsonMap, type JsonTree, treeOf } from './json-tree';
import { duplicateFieldErrors, readPatchBody, unmarshalTypeError } from './patch-body';
import { type PatchOptions, type PatchOutcome } from './patch-outcome';

/** jsonpatch.ErrBadJSONPatch */
const BAD_JSON_PATCH = 'Invalid JSON Patch';

class MergePatcher {
  /** Maps evanphx decoded into a partialDoc: Go re-marshals them with sorted keys. */
  readonly sorted = new Set<object>();

  /** pruneNulls: drop null members of every object reachable through objects and arrays. */
  pruneNulls(node: JsonTree): void {
    if (isMap(node)) {
      this.sorted.add(node);
      for (const key of Object.keys(node)) {
        if (node[key] === null) delete node[key];
        else this.pruneNulls(node[key]);
      }
    } else if (Array.isArray(node)) {
      // pruneAryNulls keeps null items and prunes inside the others.
      for (const item of node) if (item !== null) this.pruneNulls(item);
    }
  }

  mergeDocs(doc: JsonMap, patch: JsonMap): void {
    for (const key of Object.keys(patch)) {
      const value = patch[key];
      if (value === null) {
        delete doc[key];
      } else if (!hasKey(doc, key) || doc[key] === null) {
        this.pruneNulls(value);
        doc[key] = value;
      } else {
        doc[key] = this.merge(doc[key], value);
      }
    }
  }

  private merge(cur: JsonTree, patch: JsonTree): JsonTree {
    if (!isMap(cur)) {
      this.pruneNulls(patch);
      return patch;
    }
    // A non-object patch value replaces an object as is, nulls inside included.
    if (!isMap(patch)) return patch;
    this.sorted.add(cur);
    this.mergeDocs(cur, patch);
    return cur;
  }
}

/** Applies a merge patch body to `doc` (the current object as served v1 JSON). Throws BadRequestError (400). */
export function applyMergePatch(doc: unknown, body: string, opts: PatchOptions = {}): PatchOutcome {
  const validation = opts.fieldValidation ?? 'Warn';
  const strict = validation !== 'Ignore';
  const parsed = readPatchBody(body);
  if (!parsed.ok) throw new BadRequestError(strict ? `error decoding patch: ${parsed.error}` : BAD_JSON_PATCH);
  const json = parsed.json;
  let strictErrors: string[] = [];
  if (strict) {
    if (json.kind !== 'object' && json.kind !== 'null') {
      throw new BadRequestError(`error decoding patch: ${unmarshalTypeError(json, 'map[string]interface {}')}`);
    }
    strictErrors = duplicateFieldErrors(json);
  }
  const patcher = new MergePatcher();
  let patched: JsonTree;
  if (json.kind === 'object') {
    const root = cloneTree(doc);
    if (!isMap(root)) throw new BadRequestError('Invalid JSON Document');
    patcher.sorted.add(root);
    patcher.mergeDocs(root, treeOf(json) as JsonMap);
    patched = root;
  } else if (json.kind === 'array') {
    // Only reachable with fieldValidation=Ignore: "not a doc, so we turn straight into the patch".
    patched = treeOf(json);
    patcher.pruneNulls(patched);
  } else {
    throw new BadRequestError(BAD_JSON_PATCH);
  }
  return { patched, patchedJson: encodeGoJson(patched, patcher.sorted), strictErrors };
}
