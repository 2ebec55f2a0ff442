// What the access reviews' validation (pkg/apis/authorization/validation) shares: the %#v of a
// NonResourceAttributes BadValue, the 1.31+ selector rules, and metadata that must be empty.
import { objectMetaGoSyntax } from '../domain/codec/object-meta-go-syntax';
import { type FieldError, fieldErrors, GoLiteral } from '../domain/errors/field-error';

type Plain = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function isZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value as Plain).every(isZero);
  return false;
}

/** internal authorization.NonResourceAttributes with %#v, the BadValue of the "both" error. */
export function nonResourceAttributesGoSyntax(attributes: Plain): GoLiteral {
  return new GoLiteral(`authorization.NonResourceAttributes{Path:${JSON.stringify(str(attributes.path))}, Verb:${JSON.stringify(str(attributes.verb))}}`);
}

/**
 * validateResourceAttributes (1.31+): a selector gives a raw selector or requirements, not both.
 * The requirements' own checks (ValidateLabelSelectorRequirement and its field twin) are not
 * reproduced: ABAC ignores selectors, so they never change an answer.
 */
export function selectorErrors(resource: Plain | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['fieldSelector', 'labelSelector']) {
    const selector = resource?.[key] as Plain | undefined;
    if (!selector) continue;
    const path = `spec.resourceAttributes.${key}`;
    const raw = str(selector.rawSelector);
    const requirements = Array.isArray(selector.requirements) ? selector.requirements : [];
    if (raw !== '' && requirements.length > 0) errors.push(fieldErrors.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
    if (raw === '' && requirements.length === 0) errors.push(fieldErrors.required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  }
  return errors;
}

/** metadata must be empty but for managedFields (and, for the local kind, the namespace). */
export function metadataErrors(review: Plain, allowed: readonly string[], detail: string): FieldError[] {
  const metadata = (review.metadata ?? {}) as Plain;
  const rest = Object.entries(metadata).filter(([key, value]) => !['managedFields', ...allowed].includes(key) && !isZero(value));
  return rest.length === 0 ? [] : [fieldErrors.invalid('metadata', new GoLiteral(objectMetaGoSyntax(metadata)), detail)];
}
