// Label / annotation / qualified-name field validators: apimachinery
// pkg/apis/meta/v1/validation (ValidateLabels, ValidateLabelName) and pkg/api/validation
// (ValidateAnnotations). Go iterates maps in random order; we use insertion order.
import { type FieldError, fieldErrors } from '../errors/field-error';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './name-validation';

export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);

/** ValidateLabelName / core ValidateQualifiedName: one Invalid per message. */
export function validateQualifiedName(path: string, value: string): FieldError[] {
  return isQualifiedName(value).map((msg) => fieldErrors.invalid(path, value, msg));
}

/** core ValidateDNS1123Label */
export function validateDNS1123Label(path: string, value: string): FieldError[] {
  return isDNS1123Label(value).map((msg) => fieldErrors.invalid(path, value, msg));
}

/** core ValidateDNS1123Subdomain */
export function validateDNS1123Subdomain(path: string, value: string): FieldError[] {
  return isDNS1123Subdomain(value).map((msg) => fieldErrors.invalid(path, value, msg));
}

/** v1validation.ValidateLabels: every error is reported on the map's path, not the key's. */
export function validateLabels(path: string, labels: Record<string, string> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    errs.push(...validateQualifiedName(path, key));
    errs.push(...isValidLabelValue(value).map((msg) => fieldErrors.invalid(path, value, msg)));
  }
  return errs;
}

/**
 * ValidateAnnotations: keys are lower-cased before the qualified-name check (BadValue is the
 * original key); then the total size of keys + values (bytes) is capped at 256 KiB.
 */
export function validateAnnotations(path: string, annotations: Record<string, string> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    errs.push(...isQualifiedName(key.toLowerCase()).map((msg) => fieldErrors.invalid(path, key, msg)));
    total += Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(fieldErrors.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}
