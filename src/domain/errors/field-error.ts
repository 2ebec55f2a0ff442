// A field error as kube-apiserver renders it:
// kubernetes/apimachinery pkg/util/validation/field/errors.go.
// `message` is the cause body ("Invalid value: \"x\": detail"); the aggregate line is `field: message`.

export type FieldErrorReason =
  'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTypeInvalid' | 'InternalError';

export interface FieldError {
  reason: FieldErrorReason;
  field: string;
  message: string;
}

/** A value already rendered the way Go's `%#v`-ish BadValue printing would render it. */
export class GoLiteral {
  constructor(readonly text: string) {}
}

/** Go-quotes a string as strconv.Quote does for printable UTF-8 (the cases that occur in practice). */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

/** `[]string{"a", "b"}` (or another Go slice type name such as `[]core.IPFamily`). */
export function goSlice(values: readonly string[], typeName = '[]string'): GoLiteral {
  return new GoLiteral(`${typeName}{${values.map(goQuote).join(', ')}}`);
}

/** Renders a BadValue: strings Go-quoted, numbers and booleans plain, null/undefined as `null`. */
export function renderBadValue(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return goSlice(value).text;
  return JSON.stringify(value);
}

export const fieldErrors = {
  required(field: string, detail = ''): FieldError {
    return { reason: 'FieldValueRequired', field, message: detail ? `Required value: ${detail}` : 'Required value' };
  },
  invalid(field: string, value: unknown, detail: string): FieldError {
    return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${renderBadValue(value)}: ${detail}` };
  },
  notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
    const list = supported.map((s) => goQuote(s)).join(', ');
    return {
      reason: 'FieldValueNotSupported',
      field,
      message: `Unsupported value: ${renderBadValue(value)}: supported values: ${list}`,
    };
  },
  duplicate(field: string, value: unknown): FieldError {
    return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${renderBadValue(value)}` };
  },
  forbidden(field: string, detail: string): FieldError {
    return { reason: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` };
  },
  tooLong(field: string, max: number): FieldError {
    return { reason: 'FieldValueTooLong', field, message: `Too long: may not be more than ${max} bytes` };
  },
  internal(field: string, detail: string): FieldError {
    return { reason: 'InternalError', field, message: `Internal error: ${detail}` };
  },
};

/** The aggregate message of pkg/util/errors: duplicates removed, brackets only for two or more. */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const lines: string[] = [];
  for (const e of errors) {
    const line = e.field ? `${e.field}: ${e.message}` : e.message;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
}
