// Decodes a JsonValue into plain objects following a StructSchema with the semantics of
// sigs.k8s.io/json UnmarshalStrict (a fork of encoding/json used by the apiserver serializer):
// - type mismatches are *saved* (the first one wins) and decoding goes on, skipping the value;
// - errors from custom UnmarshalJSON methods (metav1.Time, intstr.IntOrString) abort at once and
//   win over saved errors; both get the Go struct-field context `ServicePort.spec.ports.port`;
// - `null` leaves non-pointer scalars and structs untouched and clears pointers, slices, maps;
// - decoding into an existing value merges (a repeated key, or a repeated array reusing the
//   elements decoded before it, behave exactly like Go);
// - strict errors (`unknown field "spec.foo"`, `duplicate field "spec.type"`) are collected with
//   their path (`spec.ports[0].foo`), de-duplicated and capped at 100, as kubernetes_patch.go does.
// The output is canonical: non-pointer omitempty zero values are absent, non-omitempty ones are
// materialised ("" / 0 / null time), nested non-pointer structs always exist. With
// `keepUnknownFields` (mirror mode) members the schema does not know are kept as plain JSON, each
// after the known member it followed (unknown-members.ts).
import { type FieldSchema, type GoType, goTypeName, type StructSchema } from './go-schema';
import { canonicalTime, formatRfc3339Micro, formatRfc3339Utc, GO_ZERO_TIME_SECONDS, isCanonicalTimeText, parseRfc3339, parseRfc3339Micro } from './go-time';
import { strconvQuote } from './go-quote';
import { type JsonValue, jsonKindName, toPlainJson } from './json-value';
import { placeMembers, type UnknownMember } from './unknown-members';

/** A decode failure; `message` is the Go error text (e.g. `json: cannot unmarshal ...`). */
export class GoUnmarshalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoUnmarshalError';
  }
}

export interface SchemaDecodeOptions {
  /** Collect unknown/duplicate field errors (the apiserver's StrictSerializer). */
  strict: boolean;
  /** Keep the members the schema does not know, as plain JSON where they were (a mirror's observed object). */
  keepUnknownFields?: boolean;
}

export interface SchemaDecodeResult {
  value: Record<string, unknown>;
  /** `unknown field "spec.foo"`, `duplicate field "spec.type"` — in encounter order. */
  strictErrors: string[];
}

/**
 * encoding/json errorContext: the innermost struct and the JSON field names leading to it, as
 * a chain from the innermost field outwards. Every decoded field gets one, and an error is rare:
 * the names are joined only when one is reported.
 */
interface ErrorContext {
  readonly struct: string;
  readonly field: string;
  readonly outer: ErrorContext | undefined;
}

function contextFields(ctx: ErrorContext): string {
  let fields = ctx.field;
  for (let c = ctx.outer; c; c = c.outer) fields = `${c.field}.${fields}`;
  return fields;
}

/** A struct's fields by JSON name (UnmarshalStrict matches names exactly), built once per schema. */
const fieldIndexes = new WeakMap<StructSchema, Map<string, number>>();

function fieldIndex(schema: StructSchema): Map<string, number> {
  let index = fieldIndexes.get(schema);
  if (!index) {
    index = new Map();
    schema.fields.forEach((f, i) => {
      if (!index!.has(f.json)) index!.set(f.json, i);
    });
    fieldIndexes.set(schema, index);
  }
  return index;
}

const MAX_STRICT_ERRORS = 100;
const INT_LIMITS = {
  32: [-(2n ** 31n), 2n ** 31n - 1n],
  64: [-(2n ** 63n), 2n ** 63n - 1n],
} as const;

function typeErrorText(value: string, goType: string, ctx: ErrorContext | undefined): string {
  if (ctx) return `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${contextFields(ctx)} of type ${goType}`;
  return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
}

function parseGoInt(text: string, bits: 32 | 64): number | undefined {
  // strconv.ParseInt(s, 10, 64) then the field's overflow check.
  if (!/^-?\d+$/.test(text)) return undefined;
  const n = BigInt(text);
  const [min, max] = INT_LIMITS[bits];
  if (n < min || n > max) return undefined;
  return Number(n);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class SchemaDecoder {
  private savedError: string | undefined;
  readonly strictErrors: string[] = [];
  private readonly seenStrict = new Set<string>();

  constructor(
    private readonly strict: boolean,
    private readonly keepUnknown: boolean,
  ) {}

  finish(): void {
    if (this.savedError !== undefined) throw new GoUnmarshalError(this.savedError);
  }

  private saveError(text: string): void {
    if (this.savedError === undefined) this.savedError = text;
  }

  private saveStrictError(kind: 'unknown' | 'duplicate', path: string, key: string): void {
    if (!this.strict || this.strictErrors.length >= MAX_STRICT_ERRORS) return;
    const text = `${kind} field ${strconvQuote(path ? `${path}.${key}` : key)}`;
    if (this.seenStrict.has(text)) return;
    this.seenStrict.add(text);
    this.strictErrors.push(text);
  }

  decodeStruct(schema: StructSchema, json: JsonValue, existing: unknown, ctx: ErrorContext | undefined, path: string): Record<string, unknown> | undefined {
    if (json.kind !== 'object') {
      this.saveError(typeErrorText(jsonKindName(json), schema.goName, ctx));
      return isPlainObject(existing) ? existing : undefined;
    }
    const fields = schema.fields;
    // Each field's value by its position in the schema, starting from the existing struct's (Go
    // decodes into it): one array, not an object whose keys are added and deleted as decoded.
    const values: unknown[] = new Array(fields.length);
    if (isPlainObject(existing)) for (let i = 0; i < fields.length; i++) values[i] = existing[fields[i].json];
    const index = fieldIndex(schema);
    const seen: boolean[] = [];
    const unknown: UnknownMember[] = [];
    let after: string | null = null;
    for (const member of json.members) {
      const at = index.get(member.key);
      if (at === undefined) {
        // Unknown keys are skipped wholesale: nothing inside them is type- or strict-checked.
        this.saveStrictError('unknown', path, member.key);
        if (this.keepUnknown) keepMember(unknown, { after, key: member.key, value: toPlainJson(member.value) });
        continue;
      }
      const f = fields[at];
      after = f.json;
      if (seen[at]) this.saveStrictError('duplicate', path, f.json);
      seen[at] = true;
      const fieldCtx: ErrorContext = { struct: schema.name, field: f.json, outer: ctx };
      values[at] = this.decodeField(f, member.value, values[at], fieldCtx, path ? `${path}.${f.json}` : f.json);
    }
    const decoded = canonicalValues(schema, values, true);
    return unknown.length ? placeMembers(schema, decoded, unknown) : decoded;
  }

  private decodeField(f: FieldSchema, json: JsonValue, existing: unknown, ctx: ErrorContext, path: string): unknown {
    if (json.kind === 'null') {
      // indirect(v, decodingNull): a pointer is set to nil; maps and slices too.
      if (f.pointer) return undefined;
      return this.decodeNullInto(f.type, existing);
    }
    return this.decodeValue(f.type, json, existing, ctx, path);
  }

  /** `null` into a non-pointer value. */
  private decodeNullInto(type: GoType, existing: unknown): unknown {
    switch (type.kind) {
      case 'slice':
      case 'stringMap':
      case 'stringListMap':
      case 'rawJson':
        return undefined;
      case 'time':
        // Time.UnmarshalJSON("null") resets to the zero time.
        return undefined;
      case 'intOrString':
        // IntOrString.UnmarshalJSON("null"): Type=Int, IntVal untouched.
        return typeof existing === 'number' ? existing : undefined;
      default:
        // Strings, numbers, bools and structs ignore null.
        return existing;
    }
  }

  private decodeValue(type: GoType, json: JsonValue, existing: unknown, ctx: ErrorContext, path: string): unknown {
    switch (type.kind) {
      case 'string':
        if (json.kind === 'string') return json.value;
        this.saveError(typeErrorText(jsonKindName(json), type.goName, ctx));
        return existing;
      case 'bool':
        if (json.kind === 'bool') return json.value;
        this.saveError(typeErrorText(jsonKindName(json), 'bool', ctx));
        return existing;
      case 'int': {
        if (json.kind !== 'number') {
          this.saveError(typeErrorText(jsonKindName(json), goTypeName(type), ctx));
          return existing;
        }
        const n = parseGoInt(json.text, type.bits);
        if (n === undefined) {
          this.saveError(typeErrorText(`number ${json.text}`, goTypeName(type), ctx));
          return existing;
        }
        return n;
      }
      case 'stringMap':
        return this.decodeStringMap(json, existing, ctx, path);
      case 'stringListMap':
        return this.decodeStringListMap(type.valueGoName, json, existing, ctx, path);
      case 'slice':
        return this.decodeSlice(type.elem, json, existing, ctx, path);
      case 'struct':
        return this.decodeStruct(type.struct, json, existing, ctx, path);
      case 'intOrString':
        return decodeIntOrString(json, ctx);
      case 'time':
        return type.micro ? decodeMicroTime(json, ctx) : decodeTime(json, ctx);
      case 'rawJson':
        return toPlainJson(json);
    }
  }

  private decodeStringMap(json: JsonValue, existing: unknown, ctx: ErrorContext, path: string): unknown {
    if (json.kind !== 'object') {
      this.saveError(typeErrorText(jsonKindName(json), 'map[string]string', ctx));
      return existing;
    }
    // Go reuses a non-nil map, so a repeated key adds to what the first one decoded.
    const out: Record<string, string> = Object.create(null);
    if (isPlainObject(existing)) Object.assign(out, existing);
    const seen = new Set<string>();
    for (const member of json.members) {
      if (seen.has(member.key)) this.saveStrictError('duplicate', path, member.key);
      seen.add(member.key);
      const v = member.value;
      if (v.kind === 'string') out[member.key] = v.value;
      else if (v.kind === 'null') out[member.key] = '';
      else {
        this.saveError(typeErrorText(jsonKindName(v), 'string', ctx));
        out[member.key] = '';
      }
    }
    return out;
  }

  /** map[string]ExtraValue: each value a []string (null is a nil slice); Go decodes every map value into a fresh element. */
  private decodeStringListMap(valueGoName: string, json: JsonValue, existing: unknown, ctx: ErrorContext, path: string): unknown {
    if (json.kind !== 'object') {
      this.saveError(typeErrorText(jsonKindName(json), `map[string]${valueGoName}`, ctx));
      return existing;
    }
    const out: Record<string, string[] | null> = Object.create(null);
    if (isPlainObject(existing)) Object.assign(out, existing);
    const seen = new Set<string>();
    for (const member of json.members) {
      if (seen.has(member.key)) this.saveStrictError('duplicate', path, member.key);
      seen.add(member.key);
      const v = member.value;
      if (v.kind === 'null') out[member.key] = null;
      else if (v.kind !== 'array') {
        this.saveError(typeErrorText(jsonKindName(v), valueGoName, ctx));
        out[member.key] ??= null;
      } else {
        out[member.key] = v.items.map((item) => {
          if (item.kind === 'string') return item.value;
          if (item.kind !== 'null') this.saveError(typeErrorText(jsonKindName(item), 'string', ctx));
          return '';
        });
      }
    }
    return out;
  }

  private decodeSlice(elem: GoType, json: JsonValue, existing: unknown, ctx: ErrorContext, path: string): unknown {
    if (json.kind !== 'array') {
      this.saveError(typeErrorText(jsonKindName(json), '[]' + goTypeName(elem), ctx));
      return existing;
    }
    // encoding/json decodes element i into the slice's existing element i when there is one.
    const old = Array.isArray(existing) ? existing : [];
    // A fresh struct element decodes as into its zero value, which canonicalValues gives it anyway.
    const fresh = elem.kind === 'struct' ? undefined : zeroValue(elem);
    return json.items.map((item, i) => {
      const itemPath = `${path}[${i}]`;
      const prior = i < old.length ? old[i] : fresh;
      if (item.kind === 'null') return this.decodeNullInto(elem, prior) ?? zeroValue(elem);
      const decoded = this.decodeValue(elem, item, prior, ctx, itemPath);
      return decoded === undefined ? zeroValue(elem) : decoded;
    });
  }
}

/** A repeated unknown key keeps its first place and its last value, as JSON.parse does. */
function keepMember(unknown: UnknownMember[], member: UnknownMember): void {
  const earlier = unknown.find((m) => m.key === member.key);
  if (earlier) earlier.value = member.value;
  else unknown.push(member);
}

function decodeIntOrString(json: JsonValue, ctx: ErrorContext): unknown {
  // IntOrString.UnmarshalJSON: strings are names, anything else goes through
  // encoding/json into an int32, whose error aborts the whole decode.
  if (json.kind === 'string') return json.value === '' ? '' : json.value;
  if (json.kind === 'number') {
    const n = parseGoInt(json.text, 32);
    if (n === undefined) throw new GoUnmarshalError(typeErrorText(`number ${json.text}`, 'int32', ctx));
    return n === 0 ? undefined : n;
  }
  throw new GoUnmarshalError(typeErrorText(jsonKindName(json), 'int32', ctx));
}

function decodeTime(json: JsonValue, ctx: ErrorContext): unknown {
  // metav1.Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse(time.RFC3339).
  if (json.kind !== 'string') throw new GoUnmarshalError(typeErrorText(jsonKindName(json), 'string', ctx));
  // The zero time (0001-01-01T00:00:00Z) is "unset": Go renders it as null. A *pointer* to the
  // zero time would render `null` too and then decode back as nil; we store it as nil at once.
  if (isCanonicalTimeText(json.value)) return canonicalTime(json.value) ?? undefined;
  const parsed = parseRfc3339(json.value);
  if (!parsed.ok) throw new GoUnmarshalError(parsed.error);
  return parsed.seconds === GO_ZERO_TIME_SECONDS ? undefined : formatRfc3339Utc(parsed.seconds);
}

/** metav1.MicroTime.UnmarshalJSON: time.Parse(RFC3339Micro), six fractional digits kept (the zero time is unset). */
function decodeMicroTime(json: JsonValue, ctx: ErrorContext): unknown {
  if (json.kind !== 'string') throw new GoUnmarshalError(typeErrorText(jsonKindName(json), 'string', ctx));
  const parsed = parseRfc3339Micro(json.value);
  if (!parsed.ok) throw new GoUnmarshalError(parsed.error);
  return parsed.seconds === GO_ZERO_TIME_SECONDS && parsed.micros === 0 ? undefined : formatRfc3339Micro(parsed.seconds, parsed.micros);
}

/** The value a fresh Go element of this type decodes into. */
function zeroValue(type: GoType): unknown {
  switch (type.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
      return 0;
    case 'struct':
      return canonicalStruct(type.struct, {});
    default:
      return undefined;
  }
}

/** Drops omitempty zero scalars, materialises non-omitempty zeros and nested value structs. */
export function canonicalStruct(schema: StructSchema, obj: Record<string, unknown>): Record<string, unknown> {
  const values: unknown[] = new Array(schema.fields.length);
  for (let i = 0; i < schema.fields.length; i++) values[i] = obj[schema.fields[i].json];
  return canonicalValues(schema, values, false);
}

/**
 * canonicalStruct of a struct given as its fields' values, by position in the schema. `decoded`:
 * the values are this decoder's own, whose nested structs are canonical already.
 */
function canonicalValues(schema: StructSchema, values: readonly unknown[], decoded: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = schema.fields;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    let v = values[i];
    if (v === null && (f.pointer || f.type.kind !== 'time')) v = undefined;
    if (!f.pointer) {
      if (f.type.kind === 'struct') v = decoded && isPlainObject(v) ? v : canonicalStruct(f.type.struct, isPlainObject(v) ? v : {});
      else if (f.type.kind === 'time') v = v ?? (f.omitempty ? undefined : null);
      else if (f.type.kind === 'intOrString') v = v === 0 ? undefined : v;
      else if (f.omitempty && (v === '' || v === 0 || v === false)) v = undefined;
      else if (!f.omitempty && v === undefined) v = zeroValue(f.type);
    }
    if (v !== undefined) out[f.json] = v;
  }
  return out;
}

/** Decodes `json` as the struct `schema`. Throws GoUnmarshalError with Go's first error. */
export function decodeWithSchema(json: JsonValue, schema: StructSchema, opts: SchemaDecodeOptions): SchemaDecodeResult {
  const decoder = new SchemaDecoder(opts.strict, opts.keepUnknownFields ?? false);
  // Top-level `null` into a struct pointer's target is a no-op: the zero object.
  const value = json.kind === 'null' ? canonicalStruct(schema, {}) : decoder.decodeStruct(schema, json, undefined, undefined, '');
  decoder.finish();
  return { value: value ?? canonicalStruct(schema, {}), strictErrors: decoder.strictErrors };
}
