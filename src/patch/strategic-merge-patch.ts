// Strategic merge patch, server side: a port of kubernetes/apimachinery v0.32
// pkg/util/strategicpatch/patch.go StrategicMergeMapPatch (mergeMap with MergeParallelList and
// IgnoreUnmatchedNulls), with the error mapping of apiserver handlers/patch.go
// interpretStrategicMergePatchError. Function names follow upstream so the two can be read side by
// side. Like upstream, the merge mutates both maps (callers get clones) and the consumed patch is
// what kube-apiserver prints as `%+v` when the result does not decode.
// Go map iteration order is random; patch keys are processed here in document order.
import { strconvQuote } from '../domain/codec/go-quote';
import { BadRequestError, type DomainError, RawServerError } from '../domain/errors/domain-errors';
import { goSprintS, goSprintV } from './go-format';
import { goSliceStable } from './go-stable-sort';
import { cloneTree, type GoDynamicType, goScalarEqual, dynamicTypeName, goTypeOf, hasKey, isMap, type JsonMap, type JsonTree, newMap } from './json-tree';
import { PatchRejectedError } from './patch-rejected-error';
import { servicePatchSchema, type SmpType } from './patch-schema';

const DIRECTIVE_MARKER = '$patch';
const DELETE_DIRECTIVE = 'delete';
const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const RETAIN_KEYS_DIRECTIVE = '$' + RETAIN_KEYS_STRATEGY;
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** What a recovered Go panic answers (apiserver WithPanicRecovery), e.g. a list starting with null. */
export const GO_PANIC_MESSAGE = 'This request caused apiserver to panic. Look in the logs for details.';

/** An error of the merge, classified as interpretStrategicMergePatchError will answer it. */
class SmpError extends Error {
  constructor(
    message: string,
    readonly answer: 'badRequest' | 'unprocessable' | 'raw',
  ) {
    super(message);
  }
}

// pkg/util/mergepatch/errors.go sentinels, by the status they end up as.
const errBadPatchFormatForPrimitiveList = () => new SmpError('invalid patch format of primitive list', 'badRequest');
const errBadPatchFormatForRetainKeys = () => new SmpError('invalid patch format of retainKeys', 'badRequest');
const errBadPatchFormatForSetElementOrderList = () => new SmpError('invalid patch format of setElementOrder list', 'badRequest');
const errNoListOfLists = () => new SmpError('lists of lists are not supported', 'unprocessable');
const raw = (message: string) => new SmpError(message, 'raw');

/**
 * Go's `==` on two interface{} values: maps and slices of the same type are not comparable, so
 * upstream panics (e.g. a merge key whose value is an object); other mismatches are just unequal.
 */
function goEqual(a: JsonTree, b: JsonTree): boolean {
  const ta = goTypeOf(a);
  if ((ta === 'map' || ta === 'slice') && ta === goTypeOf(b)) throw raw(GO_PANIC_MESSAGE);
  return goScalarEqual(a, b);
}

/** Using a value as a Go map key (map[interface{}]…) panics for maps and slices. */
function assertHashable(values: readonly JsonTree[]): void {
  if (values.some((v) => isMap(v) || Array.isArray(v))) throw raw(GO_PANIC_MESSAGE);
}

/** mergepatch.ErrNoMergeKey */
function errNoMergeKey(m: JsonMap, key: string): SmpError {
  return raw(`map: ${goSprintV(m)} does not contain declared merge key: ${key}`);
}

/** mergepatch.ErrBadArgType(expected, actual): `%s` of two reflect.Types (nil prints `%!s(<nil>)`). */
function errBadArgType(expected: GoDynamicType, actual: JsonTree | undefined): SmpError {
  const actualName = actual === undefined || actual === null ? '%!s(<nil>)' : dynamicTypeName(goTypeOf(actual));
  return raw(`expected a ${dynamicTypeName(expected)}, but received a ${actualName}`);
}

/** mergepatch.ErrBadPatchType */
function errBadPatchType(patchType: JsonTree, m: JsonMap): SmpError {
  return raw(`unknown patch type: ${goSprintS(patchType)} in map: ${goSprintV(m)}`);
}

function kindName(t: SmpType): string {
  return t.kind === 'scalar' ? t.goKind : t.kind;
}

/** forkedjson.LookupPatchMetadata */
function lookupPatchMetadata(t: SmpType, jsonField: string): { fieldType: SmpType; strategies: readonly string[]; mergeKey: string } {
  if (t.kind === 'map') return { fieldType: t.elem, strategies: [], mergeKey: '' };
  if (t.kind !== 'struct') {
    throw raw(`merging an object in json but data type is not map or struct, instead is: ${kindName(t)}`);
  }
  const field = t.fields.get(jsonField);
  if (!field) throw raw(`unable to find api field in struct ${t.name} for the json field ${strconvQuote(jsonField)}`);
  return { fieldType: field.type, strategies: field.strategies, mergeKey: field.mergeKey };
}

/** extractRetainKeysPatchStrategy: the non-retainKeys strategy of a field. */
function patchStrategyOf(strategies: readonly string[]): string {
  switch (strategies.length) {
    case 0:
      return '';
    case 1:
      return strategies[0] === RETAIN_KEYS_STRATEGY ? '' : strategies[0];
    case 2:
      if (strategies[0] === RETAIN_KEYS_STRATEGY) return strategies[1];
      if (strategies[1] === RETAIN_KEYS_STRATEGY) return strategies[0];
  }
  throw raw(`unexpected patch strategy: ${goSprintV([...strategies])}`);
}

/** reflect.Type.Elem() of a list field. */
function elemOf(t: SmpType): SmpType {
  return t.kind === 'slice' || t.kind === 'map' ? t.elem : t;
}

/** extractKey: `$setElementOrder/ports` → `ports`. */
function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw errBadPatchFormatForPrimitiveList();
    throw errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

/** sliceElementType: the one dynamic type shared by every element of the slices. */
function sliceElementType(...slices: readonly JsonTree[][]): GoDynamicType {
  let prev: GoDynamicType | undefined;
  for (const s of slices) {
    for (const v of s) {
      const current = goTypeOf(v);
      if (prev === undefined) {
        // reflect.TypeOf(nil).Kind() dereferences a nil interface: upstream panics.
        if (current === 'nil') throw raw(GO_PANIC_MESSAGE);
        prev = current;
        if (prev === 'slice') throw errNoListOfLists();
      } else if (prev !== current) {
        throw raw(`list element types are not identical: ${goSprintV(slices.map((x) => [...x]))}`);
      }
    }
  }
  if (prev === undefined) throw raw('no elements in any of the given slices');
  return prev;
}

/** findMapInSliceBasedOnKeyValue */
function findMapInSlice(list: readonly JsonTree[], key: string, value: JsonTree): { map: JsonMap; index: number } | undefined {
  for (let k = 0; k < list.length; k++) {
    const v = list[k];
    if (!isMap(v)) throw raw(`value for key ${k} is not a map.`);
    if (hasKey(v, key) && goEqual(v[key], value)) return { map: v, index: k };
  }
  return undefined;
}

/** index: position of an item (maps by merge key value) in a list, -1 if absent. */
function indexOf(list: readonly JsonTree[], item: JsonTree, mergeKey: string, kind: GoDynamicType): number {
  const valueOf = (x: JsonTree): JsonTree => (kind === 'map' ? (isMap(x) && hasKey(x, mergeKey) ? x[mergeKey] : null) : x);
  const wanted = valueOf(item);
  return list.findIndex((v) => goEqual(wanted, valueOf(v)));
}

/** validateMergeKeyInLists */
function validateMergeKeyInLists(mergeKey: string, ...lists: readonly JsonTree[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map', item);
      if (!hasKey(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** extractToDeleteItems: split off the `$patch: delete` elements. */
function extractToDeleteItems(list: readonly JsonTree[]): [JsonTree[], JsonTree[]] {
  const nonDelete: JsonTree[] = [];
  const toDelete: JsonTree[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (hasKey(v, DIRECTIVE_MARKER) && v[DIRECTIVE_MARKER] === DELETE_DIRECTIVE) toDelete.push(v);
    else nonDelete.push(v);
  }
  return [nonDelete, toDelete];
}

/** normalizeSliceOrder: stable-sort `toSort` by `order` (items missing from it compare "less"). */
function normalizeSliceOrder(toSort: JsonTree[], order: readonly JsonTree[], mergeKey: string, kind: GoDynamicType): JsonTree[] {
  let toDelete: JsonTree[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, [...order]);
    [toSort, toDelete] = extractToDeleteItems(toSort);
  }
  goSliceStable(toSort, (i, j) => {
    const ii = indexOf(order, toSort[i], mergeKey, kind);
    if (ii >= 0) {
      const ij = indexOf(order, toSort[j], mergeKey, kind);
      if (ij >= 0) return ii < ij;
    }
    return true;
  });
  return [...toSort, ...toDelete];
}

/** mergeSortedSlice: interleave server-only items (left) into patch items (right) by live order. */
function mergeSortedSlice(left: JsonTree[], right: JsonTree[], serverOrder: readonly JsonTree[], mergeKey: string, kind: GoDynamicType): JsonTree[] {
  const out: JsonTree[] = [];
  let i = 0;
  let j = 0;
  const size = left.length + right.length;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) out.push(right[j++]);
    else if (j >= right.length && i < left.length) out.push(left[i++]);
    else {
      const li = indexOf(serverOrder, left[i], mergeKey, kind);
      const ri = indexOf(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** normalizeElementOrder */
function normalizeElementOrder(patch: JsonTree[], serverOnly: JsonTree[], patchOrder: readonly JsonTree[], serverOrder: readonly JsonTree[], mergeKey: string, kind: GoDynamicType): JsonTree[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}

/** partitionPrimitivesByPresentInList */
function partitionPrimitives(list: readonly JsonTree[], partitionBy: readonly JsonTree[]): [JsonTree[], JsonTree[]] {
  assertHashable(partitionBy);
  assertHashable(list);
  const inPatch: JsonTree[] = [];
  const serverOnly: JsonTree[] = [];
  for (const v of list) (partitionBy.some((p) => goEqual(p, v)) ? inPatch : serverOnly).push(v);
  return [inPatch, serverOnly];
}

/** partitionMapsByPresentInList */
function partitionMaps(list: readonly JsonTree[], partitionBy: readonly JsonTree[], mergeKey: string): [JsonTree[], JsonTree[]] {
  const inPatch: JsonTree[] = [];
  const serverOnly: JsonTree[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (!hasKey(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (findMapInSlice(partitionBy, mergeKey, v[mergeKey]) ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** deduplicateScalars, including its habit of moving the last item into a duplicate's slot. */
function deduplicateScalars(s: JsonTree[]): JsonTree[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(s[i], s[j])) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/** mergeKeyValueEqual */
function mergeKeyValueEqual(left: JsonTree, right: JsonTree, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isMap(left)) throw errBadArgType('map', left);
  if (!isMap(right)) throw errBadArgType('map', right);
  if (!hasKey(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasKey(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** validatePatchWithSetOrderList: patch items must appear in the $setElementOrder order. */
function validatePatchWithSetOrderList(patchList: readonly JsonTree[], setOrderList: readonly JsonTree[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? extractToDeleteItems(patchList)[0] : patchList;
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDelete.length && setOrderIndex < setOrderList.length) {
    const item = nonDelete[patchIndex];
    if (isMap(item) && hasKey(item, DIRECTIVE_MARKER)) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(item, setOrderList[setOrderIndex], mergeKey)) patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDelete.length && setOrderIndex >= setOrderList.length) {
    throw raw(`The order in patch list:\n${goSprintV([...patchList])}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goSprintV([...setOrderList])}\n`);
  }
}

/** handleDirectiveInMergeMap: `$patch` on a map. */
function handleDirectiveInMergeMap(directive: JsonTree, patch: JsonMap): JsonMap {
  if (directive === REPLACE_DIRECTIVE) {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === DELETE_DIRECTIVE) return newMap();
  throw errBadPatchType(directive, patch);
}

/** applyRetainKeysDirective: keep only the listed keys of the original. */
function applyRetainKeysDirective(original: JsonMap, patch: JsonMap): void {
  if (!hasKey(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retainKeys = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(retainKeys)) throw errBadPatchFormatForRetainKeys();
  assertHashable(retainKeys);
  const retained = (key: string) => retainKeys.some((k) => k === key);
  for (const key of Object.keys(patch)) {
    if (patch[key] === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!retained(key)) throw errBadPatchFormatForRetainKeys();
  }
  for (const key of Object.keys(original)) if (!retained(key)) delete original[key];
}

/** A list member as `.([]interface{})` sees it: undefined when absent. */
function listMember(m: JsonMap, key: string): JsonTree[] | undefined {
  if (!hasKey(m, key)) return undefined;
  const v = m[key];
  if (!Array.isArray(v)) throw errBadArgType('slice', v);
  return v;
}

/** mergePatchIntoOriginal: merge each `$setElementOrder/<list>` with its list, then order it. */
function mergePatchIntoOriginal(original: JsonMap, patch: JsonMap, t: SmpType): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX) || !hasKey(patch, key)) continue;
    const setElementOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setElementOrder)) throw errBadArgType('slice', setElementOrder);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const originalList = listMember(original, originalKey);
    const patchList = listMember(patch, originalKey);
    const { fieldType, strategies, mergeKey } = lookupPatchMetadata(t, originalKey);
    const strategy = patchStrategyOf(strategies);
    validatePatchWithSetOrderList(patchList ?? [], setElementOrder, mergeKey);

    let merged: JsonTree[];
    if (originalList && !patchList) merged = originalList;
    else if (!originalList && patchList) merged = patchList;
    else if (originalList && patchList) merged = mergeSliceHandler(originalList, patchList, fieldType, strategy, mergeKey, false);
    else continue;

    const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, setElementOrder, mergeKey) : partitionPrimitives(merged, setElementOrder);
    const kind = sliceElementType(originalList ?? [], patchList ?? []);
    original[originalKey] = normalizeElementOrder(patchItems, serverOnly, setElementOrder, originalList ?? [], mergeKey, kind);
    delete patch[originalKey];
  }
}

/** mergeMap */
function mergeMap(original: JsonMap, patch: JsonMap, t: SmpType): JsonMap {
  if (hasKey(patch, DIRECTIVE_MARKER)) return handleDirectiveInMergeMap(patch[DIRECTIVE_MARKER], patch);
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, t);

  for (const patchKey of Object.keys(patch)) {
    const patchV = patch[patchKey];
    let k = patchKey;
    let isDeleteList = false;
    // preprocessDeletionListForMerging: `$deleteFromPrimitiveList/x` works on `x`.
    if (patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      k = extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[k];
      continue;
    }
    if (!hasKey(original, k)) {
      original[k] = patchV;
      continue;
    }
    const originalType = goTypeOf(original[k]);
    if (originalType !== goTypeOf(patchV)) {
      original[k] = patchV;
      continue;
    }
    const { fieldType, strategies, mergeKey } = lookupPatchMetadata(t, k);
    const strategy = patchStrategyOf(strategies);
    if (originalType === 'map') {
      original[k] = mergeMapHandler(original[k] as JsonMap, patchV as JsonMap, fieldType, strategy);
    } else if (originalType === 'slice') {
      original[k] = mergeSliceHandler(original[k] as JsonTree[], patchV as JsonTree[], fieldType, strategy, mergeKey, isDeleteList);
    } else {
      original[k] = patchV;
    }
  }
  return original;
}

/** mergeMapHandler */
function mergeMapHandler(original: JsonMap, patch: JsonMap, fieldType: SmpType, strategy: string): JsonMap {
  return strategy !== REPLACE_DIRECTIVE ? mergeMap(original, patch, fieldType) : patch;
}

/** mergeSliceHandler */
function mergeSliceHandler(original: JsonTree[], patch: JsonTree[], fieldType: SmpType, strategy: string, mergeKey: string, isDeleteList: boolean): JsonTree[] {
  if (strategy !== MERGE_DIRECTIVE) return patch;
  return mergeSlice(original, patch, elemOf(fieldType), mergeKey, isDeleteList);
}

/** mergeSlice */
function mergeSlice(original: JsonTree[], patch: JsonTree[], elemType: SmpType, mergeKey: string, isDeleteList: boolean): JsonTree[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  let merged: JsonTree[];
  if (kind !== 'map') {
    if (isDeleteList) {
      // deleteFromSlice: a map[interface{}] of the values to delete.
      assertHashable(patch);
      return original.filter((v) => !patch.some((d) => goEqual(d, v)));
    }
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw raw(`cannot merge lists without merge key for type ${kindName(elemType)}`);
    [original, patch] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(original, patch, mergeKey, elemType);
  }
  const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, patch, mergeKey) : partitionPrimitives(merged, patch);
  return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind);
}

/** mergeSliceWithSpecialElements: apply `$patch` elements; returns [original, patch without them]. */
function mergeSliceWithSpecialElements(original: JsonTree[], patch: JsonTree[], mergeKey: string): [JsonTree[], JsonTree[]] {
  const withoutSpecial: JsonTree[] = [];
  let replace = false;
  for (const v of patch) {
    const typed = v as JsonMap;
    if (!hasKey(typed, DIRECTIVE_MARKER)) {
      withoutSpecial.push(v);
      continue;
    }
    const patchType = typed[DIRECTIVE_MARKER];
    if (patchType === DELETE_DIRECTIVE) {
      if (!hasKey(typed, mergeKey)) throw errNoMergeKey(typed, mergeKey);
      // deleteMatchingEntries: every element with that merge key value goes.
      let found: { index: number } | undefined;
      while ((found = findMapInSlice(original, mergeKey, typed[mergeKey]))) {
        original = [...original.slice(0, found.index), ...original.slice(found.index + 1)];
      }
    } else if (patchType === REPLACE_DIRECTIVE) {
      replace = true; // keep going: other `$patch` elements are still pruned
    } else if (patchType === MERGE_DIRECTIVE) {
      throw raw('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(patchType, typed);
    }
  }
  return replace ? [withoutSpecial, []] : [original, withoutSpecial];
}

/** mergeSliceWithoutSpecialElements: merge by merge key into the first match, else append. */
function mergeSliceWithoutSpecialElements(original: JsonTree[], patch: JsonTree[], mergeKey: string, elemType: SmpType): JsonTree[] {
  for (const v of patch) {
    const typed = v as JsonMap;
    if (!hasKey(typed, mergeKey)) throw errNoMergeKey(typed, mergeKey);
    const found = findMapInSlice(original, mergeKey, typed[mergeKey]);
    if (found) original[found.index] = mergeMap(found.map, typed, elemType);
    else original = [...original, v];
  }
  return original;
}

/** interpretStrategicMergePatchError (handlers/patch.go). */
function interpret(e: SmpError): DomainError {
  switch (e.answer) {
    case 'badRequest':
      return new BadRequestError(e.message);
    case 'unprocessable':
      return new PatchRejectedError(e.message);
    case 'raw':
      return new RawServerError(e.message);
  }
}

export interface StrategicMergeResult {
  /** The patched object. */
  patched: JsonMap;
  /** The patch map as the merge left it (directives consumed): upstream prints it with `%+v`. */
  consumedPatch: JsonMap;
}

/**
 * StrategicMergeMapPatch on private copies of `original` and `patch` (a decoded JSON object, or
 * null for a no-op). Throws BadRequestError (400), PatchRejectedError (422) or RawServerError
 * (reason-less 500) exactly where kube-apiserver answers those.
 */
export function strategicMergeMapPatch(original: object, patch: unknown, schema: SmpType = servicePatchSchema): StrategicMergeResult {
  const originalMap = cloneTree(original);
  const patchMap = cloneTree(patch);
  if (!isMap(originalMap)) throw new BadRequestError('invalid JSON document');
  if (patchMap === null) return { patched: originalMap, consumedPatch: newMap() };
  if (!isMap(patchMap)) {
    throw new BadRequestError(`json: cannot unmarshal ${Array.isArray(patchMap) ? 'array' : goJsonKind(patchMap)} into Go value of type map[string]interface {}`);
  }
  try {
    return { patched: mergeMap(originalMap, patchMap, schema), consumedPatch: patchMap };
  } catch (e) {
    if (e instanceof SmpError) throw interpret(e);
    throw e;
  }
}

function goJsonKind(value: JsonTree): string {
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** Applies a strategic merge patch (a decoded JSON object) to `original`; see strategicMergeMapPatch. */
export function applyStrategicMergePatch(original: object, patch: unknown, schema: SmpType = servicePatchSchema): object {
  return strategicMergeMapPatch(original, patch, schema).patched;
}
