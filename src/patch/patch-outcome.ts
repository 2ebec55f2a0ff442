// What applying a patch body yields, shared by the three mechanisms.
import { type FieldValidation } from '../domain/codec/service-decoder';
import { type JsonTree } from './json-tree';
import type { SmpType } from './patch-schema';

export interface PatchOptions {
  /** The request's fieldValidation; unset means Warn, as handlers/patch.go fieldValidation(""). */
  fieldValidation?: FieldValidation;
  /** The kind's strategic-merge schema (its Go struct's patch tags); default: Service's. */
  strategicSchema?: SmpType;
}

export interface PatchOutcome {
  /** The patched object as plain JSON data (null-prototype objects). */
  patched: JsonTree;
  /**
   * The BadValue kube-apiserver puts in `patch: Invalid value: "<here>"` when the patched object
   * does not decode: the patched JSON as Go marshals it (JSON/merge patch), or fmt `%+v` of the
   * patch map after the merge consumed its directives (strategic merge patch).
   */
  patchedJson: string;
  /**
   * Strict-decoding findings about the body itself (`json patch unknown field "[0].foo"`,
   * `duplicate field "spec.type"`). Join them with the patched object's own strict errors:
   * fieldValidation=Strict → the 422 above with `strict decoding error: <all, ", "-joined>`;
   * Warn → one Warning header each; Ignore → always empty.
   */
  strictErrors: string[];
}
