// A PATCH body applied to the current Service and turned back into a Service exactly as a
// request body would be: decoded (Go decoder rules), defaulted. Decode failures of the patched
// result are kube-apiserver's 422 at field `patch` (handlers/patch.go), not the usual 400.
import { decodeServiceValue, type FieldValidation } from '../domain/codec/service-decoder';
import { ObjectDecodeError } from '../domain/codec/object-decode-error';
import { applyServiceDefaults } from '../domain/service-defaults';
import type { Service } from '../domain/service.types';
import { applyPatchOutcome, type AppliedPatchType, patchedObjectInvalid } from './apply-patch';

export interface ServicePatch {
  type: AppliedPatchType;
  body: string;
  fieldValidation: FieldValidation;
}

/** The patched, decoded, defaulted object, plus the warnings for unknown fields (Warn). */
export function patchedService(current: Service, patch: ServicePatch): { object: Service; warnings: string[] } {
  const outcome = applyPatchOutcome(current, patch.body, patch.type, { fieldValidation: patch.fieldValidation });
  let decoded;
  try {
    decoded = decodeServiceValue(outcome.patched, { fieldValidation: patch.fieldValidation === 'Ignore' ? 'Ignore' : 'Warn' });
  } catch (error) {
    if (error instanceof ObjectDecodeError) throw patchedObjectInvalid(outcome.patchedJson, error.decoderMessage);
    throw error;
  }
  const findings = [...outcome.strictErrors, ...decoded.warnings];
  if (patch.fieldValidation === 'Strict' && findings.length) {
    throw patchedObjectInvalid(outcome.patchedJson, `strict decoding error: ${findings.join(', ')}`);
  }
  return { object: applyServiceDefaults(decoded.object), warnings: patch.fieldValidation === 'Ignore' ? [] : findings };
}
