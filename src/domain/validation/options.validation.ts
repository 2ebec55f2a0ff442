// Request-option validation: apimachinery pkg/apis/meta/v1/validation (ValidateDryRun,
// ValidateFieldManager, ValidateFieldValidation, ValidateDeleteOptions, ValidateCreateOptions,
// ValidateUpdateOptions, ValidatePatchOptions). Callers wrap the result in
// `new InvalidError('<Kind>Options', '', errs, 'meta.k8s.io')`.
import { type FieldError, fieldErrors } from '../errors/field-error';
import { goStringSlice } from './bad-values';

export const FIELD_MANAGER_MAX_LENGTH = 128;

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/** Go's `%#U` for a non-printable rune: `U+0007`. */
function goRuneU(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** ValidateFieldManager: ≤ 128 bytes, then one Invalid per non-printable rune (byte offset). */
export function validateFieldManager(value: string, path = 'fieldManager'): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(value, 'utf8') > FIELD_MANAGER_MAX_LENGTH) {
    errs.push(fieldErrors.tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  }
  let offset = 0;
  for (const ch of value) {
    if (!isPrint(ch)) {
      errs.push(fieldErrors.invalid(path, value, `invalid character ${goRuneU(ch.codePointAt(0)!)} (at position ${offset})`));
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

/** ValidateDryRun: every value must be "All"; BadValue is the whole `[]string`. */
export function validateDryRun(values: readonly string[] | undefined): FieldError[] {
  if ((values ?? []).every((v) => v === 'All')) return [];
  return [fieldErrors.notSupported('dryRun', goStringSlice(values), ['All'])];
}

const FIELD_VALIDATION_VALUES = ['', 'Ignore', 'Strict', 'Warn'];

/** ValidateFieldValidation ("" means unset). */
export function validateFieldValidation(value: string | undefined): FieldError[] {
  const v = value ?? '';
  return FIELD_VALIDATION_VALUES.includes(v) ? [] : [fieldErrors.notSupported('fieldValidation', v, FIELD_VALIDATION_VALUES)];
}

/** ValidatePropagationPolicy part of ValidateDeleteOptions (nil/undefined is allowed). */
export function validatePropagationPolicy(value: string | undefined): FieldError[] {
  if (value === undefined || ['Foreground', 'Background', 'Orphan'].includes(value)) return [];
  return [fieldErrors.notSupported('propagationPolicy', value, ['Foreground', 'Background', 'Orphan', 'nil'])];
}

export interface DeleteOptionsInput {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  dryRun?: string[];
}

/**
 * ValidateDeleteOptions. gracePeriodSeconds has no validation upstream (Services do not
 * delete gracefully; the store only normalises negatives), so it is accepted as is.
 */
export function validateDeleteOptions(options: DeleteOptionsInput): FieldError[] {
  const errs: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errs.push(fieldErrors.invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  errs.push(...validatePropagationPolicy(options.propagationPolicy));
  errs.push(...validateDryRun(options.dryRun));
  return errs;
}

export interface WriteOptionsInput {
  fieldManager?: string;
  dryRun?: string[];
  fieldValidation?: string;
}

/** ValidateCreateOptions / ValidateUpdateOptions (identical rules). */
export function validateWriteOptions(options: WriteOptionsInput): FieldError[] {
  return [...validateFieldManager(options.fieldManager ?? ''), ...validateDryRun(options.dryRun), ...validateFieldValidation(options.fieldValidation)];
}

export interface PatchOptionsInput extends WriteOptionsInput {
  force?: boolean;
}

/** ValidatePatchOptions: `force` only for apply; apply requires a fieldManager. */
export function validatePatchOptions(options: PatchOptionsInput, isApply: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!isApply) {
    if (options.force !== undefined) errs.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
  } else if (!options.fieldManager) {
    errs.push(fieldErrors.required('fieldManager', 'is required for apply patch'));
  }
  return [...errs, ...validateWriteOptions(options)];
}
