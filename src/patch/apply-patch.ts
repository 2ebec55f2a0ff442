// The patch step of PATCH /services/{name}[/status]: the body applied to the current object as
// served v1 JSON (what handlers/patch.go patches: the versioned encoding), yielding plain JSON for
// the caller to decode, default and push through the normal update (§0.2).
//
// What the caller must do with the result (handlers/patch.go jsonPatcher/smpPatcher):
//   1. Decode `patched` as a v1 Service (decodeServiceValue, same fieldValidation).
//   2. A decode failure is NOT the usual 400: it is a 422 with one cause at field `patch`,
//      `patchedObjectInvalid(outcome.patchedJson, err.decoderMessage)`, message
//      ` "" is invalid: patch: Invalid value: "<patchedJson>": <decoder error>` (empty kind and
//      name, hence the leading space; details carry only the cause).
//   3. Strict findings: `outcome.strictErrors` (about the body) come first, then the decoder's
//      unknown/duplicate-field findings about the patched object. fieldValidation=Strict → the same
//      422 with `strict decoding error: <all joined by ", ">`; Warn → a Warning header each.
//   4. Patch errors (thrown here) win over everything after them: 400 BadRequestError,
//      413 PatchTooLargeError, 422 PatchRejectedError, reason-less 500 RawServerError.
// For strategic merge patch upstream converts the merged map with FromUnstructured rather than the
// JSON decoder, so its error texts differ (`cannot convert string to int32`-style); the BadValue
// is then `%+v` of the consumed patch map, which is what `patchedJson` holds for that type.
import { strconvQuote } from '../domain/codec/go-quote';
import { BadRequestError, InvalidError } from '../domain/errors/domain-errors';
import { fieldErrors, GoLiteral } from '../domain/errors/field-error';
import { goSprintV } from './go-format';
import { applyJsonPatch } from './json-patch';
import { treeOf } from './json-tree';
import { applyMergePatch } from './merge-patch';
import { duplicateFieldErrors, readPatchBody, unmarshalTypeError } from './patch-body';
import { type PatchOptions, type PatchOutcome } from './patch-outcome';
import { strategicMergeMapPatch } from './strategic-merge-patch';

export type AppliedPatchType = 'json' | 'merge' | 'strategic';

/** smpPatcher / strategicPatchObject: the body decodes into map[string]interface{} first. */
function applyStrategicBody(current: object, body: string, opts: PatchOptions): PatchOutcome {
  const parsed = readPatchBody(body);
  // NewBadRequest(err.Error()): no `error decoding patch:` prefix on this path.
  if (!parsed.ok) throw new BadRequestError(parsed.error);
  const json = parsed.json;
  if (json.kind !== 'object' && json.kind !== 'null') {
    throw new BadRequestError(unmarshalTypeError(json, 'map[string]interface {}'));
  }
  const strictErrors = (opts.fieldValidation ?? 'Warn') === 'Ignore' ? [] : duplicateFieldErrors(json);
  const { patched, consumedPatch } = strategicMergeMapPatch(current, treeOf(json), opts.strategicSchema);
  return { patched, patchedJson: goSprintV(consumedPatch), strictErrors };
}

/** Applies `body` with the full outcome (patched value, BadValue text, strict findings). */
export function applyPatchOutcome(current: object, body: string, type: AppliedPatchType, opts: PatchOptions = {}): PatchOutcome {
  switch (type) {
    case 'json':
      return applyJsonPatch(current, body, opts);
    case 'merge':
      return applyMergePatch(current, body, opts);
    case 'strategic':
      return applyStrategicBody(current, body, opts);
  }
}

/** Applies `body` to the current object (served v1 JSON) and returns the patched plain JSON value. */
export function applyPatch(current: object, body: string, type: AppliedPatchType, opts: PatchOptions = {}): unknown {
  return applyPatchOutcome(current, body, type, opts).patched;
}

/**
 * The 422 for a patched object that does not decode: errors.NewInvalid(schema.GroupKind{}, "",
 * field.Invalid(field.NewPath("patch"), <patched>, <decoder error>)).
 */
export function patchedObjectInvalid(patchedJson: string, decoderMessage: string): InvalidError {
  return new InvalidError('', '', [fieldErrors.invalid('patch', new GoLiteral(strconvQuote(patchedJson)), decoderMessage)]);
}
