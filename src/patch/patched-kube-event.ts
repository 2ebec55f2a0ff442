// A PATCH body applied to the live Event and turned back into an Event exactly as a request body
// would be (handlers/patch.go): decoded with Go's rules; a patched object that does not decode is
// kube-apiserver's 422 at field `patch`.
import type { FieldValidation } from '../domain/codec/object-decoder';
import { decodeKubeEventValue } from '../domain/codec/kube-event-decoder';
import { ObjectDecodeError } from '../domain/codec/object-decode-error';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { applyPatchOutcome, type AppliedPatchType, patchedObjectInvalid } from './apply-patch';
import { kubeEventPatchSchema } from './patch-schema';

export interface KubeEventPatch {
  type: AppliedPatchType;
  body: string;
  fieldValidation: FieldValidation;
}

/** The patched, decoded Event, plus the warnings for unknown fields (Warn). */
export function patchedKubeEvent(current: KubeEvent, patch: KubeEventPatch): { object: KubeEvent; warnings: string[] } {
  const outcome = applyPatchOutcome(current, patch.body, patch.type, { fieldValidation: patch.fieldValidation, strategicSchema: kubeEventPatchSchema });
  let decoded;
  try {
    decoded = decodeKubeEventValue(outcome.patched, { fieldValidation: patch.fieldValidation === 'Ignore' ? 'Ignore' : 'Warn' });
  } catch (error) {
    if (error instanceof ObjectDecodeError) throw patchedObjectInvalid(outcome.patchedJson, error.decoderMessage);
    throw error;
  }
  const findings = [...outcome.strictErrors, ...decoded.warnings];
  if (patch.fieldValidation === 'Strict' && findings.length) {
    throw patchedObjectInvalid(outcome.patchedJson, `strict decoding error: ${findings.join(', ')}`);
  }
  return { object: decoded.object, warnings: patch.fieldValidation === 'Ignore' ? [] : findings };
}
