// Field selectors: k8s.io/apimachinery pkg/fields/selector.go (ParseSelector: terms joined by
// ",", operators "!=", "==", "=", values with "\\", "\," and "\=" escapes) followed by the
// per-kind field-label conversion the LIST handler applies (Selector.Transform with
// ConvertFieldLabel), which rejects unknown fields with `field label not supported: <field>`.
// Both failures are 400 BadRequest with the error text as message.
import { BadRequestError } from '../errors/domain-errors';
import { type Service } from '../service.types';

export type FieldOperator = '=' | '==' | '!=';

export interface FieldRequirement {
  field: string;
  operator: FieldOperator;
  value: string;
}

/** AND of requirements; empty matches everything. */
export interface FieldSelector {
  requirements: FieldRequirement[];
}

/** The fields of AddFieldLabelConversionsForService (pkg/apis/core/v1/conversion.go). */
export const SERVICE_SELECTABLE_FIELDS = ['metadata.name', 'metadata.namespace', 'spec.clusterIP', 'spec.type'] as const;

const TERM_OPERATORS: FieldOperator[] = ['!=', '==', '='];

/** splitTerms: split on unescaped commas, keeping escapes in the terms. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** splitTerm: the first operator occurrence splits; the lhs has no escaping. */
function splitTerm(term: string): { lhs: string; op: FieldOperator; rhs: string } | null {
  for (let i = 0; i < term.length; i++) {
    const remaining = term.slice(i);
    for (const op of TERM_OPERATORS) {
      if (remaining.startsWith(op)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return null;
}

/** UnescapeValue, with upstream's texts (the unescaped rune prints as its code point). */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new BadRequestError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      throw new BadRequestError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new BadRequestError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Go's sort.Strings order (byte-wise; equal to code-unit order for the ASCII that matters). */
function compareStrings(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}

/**
 * fields.ParseSelector + Transform(ConvertFieldLabel). Terms are sorted first, so with several
 * bad terms the first one in sort order is reported. Throws BadRequestError.
 */
export function parseFieldSelector(text: string, supported: readonly string[]): FieldSelector {
  const selector = parseFieldSelectorSyntax(text);
  // Transform runs after the whole selector parsed.
  for (const r of selector.requirements) {
    if (!supported.includes(r.field)) throw new BadRequestError(`field label not supported: ${r.field}`);
  }
  return selector;
}

/** fields.ParseSelector alone, before any kind's field labels are checked. Throws BadRequestError. */
export function parseFieldSelectorSyntax(text: string): FieldSelector {
  const parts = splitTerms(text).sort(compareStrings);
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new BadRequestError(`invalid selector: '${text}'; can't understand '${part}'`);
    requirements.push({ field: split.lhs, operator: split.op, value: unescapeValue(split.rhs) });
  }
  return { requirements };
}

/** fields.EscapeValue: a value as a selector term carries it. */
export function escapeFieldSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Service ToSelectableFields: ObjectMetaFieldsSet (namespaced) + spec.clusterIP + spec.type. */
export function serviceFieldSet(svc: Service): Record<string, string> {
  return {
    'metadata.name': svc.metadata.name ?? '',
    'metadata.namespace': svc.metadata.namespace ?? '',
    'spec.clusterIP': svc.spec.clusterIP ?? '',
    'spec.type': svc.spec.type ?? '',
  };
}

/** Selector.Matches: a missing field reads as "". */
export function matchesFields(selector: FieldSelector, fields: Record<string, string>): boolean {
  return selector.requirements.every((r) => {
    const value = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field] : '';
    return r.operator === '!=' ? value !== r.value : value === r.value;
  });
}

/**
 * RequiresExactMatch: the value a selector pins a field to (`=`/`==`), e.g. metadata.name for
 * single-object watches.
 */
export function requiredFieldValue(selector: FieldSelector, field: string): string | undefined {
  return selector.requirements.find((r) => r.field === field && r.operator !== '!=')?.value;
}
