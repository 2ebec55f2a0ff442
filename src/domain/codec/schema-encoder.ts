// Writes plain objects the way Go's encoding/json marshals the schema's structs: keys in struct
// order, `omitempty` dropping "", 0, false, nil and empty slices/maps (never structs), pointer
// fields kept whenever non-nil, map keys sorted by byte order, metav1.Time as whole-second UTC
// (zero → null), IntOrString never omitted (zero → 0), FieldsV1 copied verbatim. Members the schema
// does not know are dropped, as Go drops them, unless `keepUnknownFields` (a mirror's observed
// object): then each is copied verbatim after the known member it followed (unknown-members.ts).
import { type FieldSchema, type GoType, type StructSchema } from './go-schema';
import { canonicalTime } from './go-time';
import { compareGoStrings } from '../go-string-order';
import { placeMembers, unknownMembersOf } from './unknown-members';

export interface EncodeOptions {
  keepUnknownFields?: boolean;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A deep copy of free-form JSON data (FieldsV1) with null-prototype objects. */
function copyRaw(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyRaw);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) if (value[key] !== undefined) out[key] = copyRaw(value[key]);
    return out;
  }
  return value;
}

function isEmptyForOmit(type: GoType, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  switch (type.kind) {
    case 'string':
      return v === '';
    case 'bool':
      return v === false;
    case 'int':
      return v === 0;
    case 'slice':
      return Array.isArray(v) && v.length === 0;
    case 'stringMap':
    case 'stringListMap':
      return isPlainObject(v) && Object.keys(v).length === 0;
    default:
      // Structs (incl. Time and IntOrString) are never empty for omitempty.
      return false;
  }
}

function encodeValue(type: GoType, v: unknown, options: EncodeOptions): unknown {
  switch (type.kind) {
    case 'string':
      return v ?? '';
    case 'bool':
      return v ?? false;
    case 'int':
      return v ?? 0;
    case 'stringMap': {
      if (!isPlainObject(v)) return null;
      const out: Record<string, string> = Object.create(null);
      for (const key of Object.keys(v).sort(compareGoStrings)) out[key] = (v[key] ?? '') as string;
      return out;
    }
    case 'stringListMap': {
      if (!isPlainObject(v)) return null;
      // A nil value slice is `null`, an empty one `[]`.
      const out: Record<string, string[] | null> = Object.create(null);
      for (const key of Object.keys(v).sort(compareGoStrings)) {
        const list = v[key];
        out[key] = Array.isArray(list) ? list.map((item) => (typeof item === 'string' ? item : '')) : null;
      }
      return out;
    }
    case 'slice':
      return Array.isArray(v) ? v.map((item) => encodeValue(type.elem, item, options)) : null;
    case 'struct':
      return encodeStruct(type.struct, isPlainObject(v) ? v : {}, options);
    case 'intOrString':
      return v === undefined || v === null || v === '' ? (v === '' ? '' : 0) : v;
    case 'time': {
      if (typeof v !== 'string') return null;
      // MicroTime keeps its fraction; only metav1.Time is whole seconds.
      if (type.micro) return v;
      const canonical = canonicalTime(v);
      return canonical === undefined ? v : canonical;
    }
    case 'rawJson':
      return copyRaw(v);
  }
}

function encodeField(f: FieldSchema, v: unknown, options: EncodeOptions): { present: boolean; value?: unknown } {
  if (f.pointer) {
    if (v === undefined || v === null) return { present: false };
    // A pointer to the zero time would render null and decode back as nil: the decoder stores
    // it as nil, and so does the encoder, to keep encode∘decode a fixed point.
    if (f.type.kind === 'time' && typeof v === 'string' && canonicalTime(v) === null) return { present: false };
    return { present: true, value: encodeValue(f.type, v, options) };
  }
  if (f.omitempty && isEmptyForOmit(f.type, v)) {
    // Value structs are never omitted: a nil map/slice would, a struct renders (possibly as null).
    if (f.type.kind !== 'struct' && f.type.kind !== 'time' && f.type.kind !== 'intOrString') return { present: false };
  }
  return { present: true, value: encodeValue(f.type, v, options) };
}

/** A new object with the struct's keys in Go order and Go's omitempty applied. */
export function encodeStruct(schema: StructSchema, obj: Record<string, unknown>, options: EncodeOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of schema.fields) {
    const encoded = encodeField(f, obj[f.json], options);
    if (encoded.present) out[f.json] = encoded.value;
  }
  if (!options.keepUnknownFields) return out;
  const unknown = unknownMembersOf(schema, obj);
  if (unknown.length === 0) return out;
  return placeMembers(
    schema,
    out,
    unknown.map((m) => ({ ...m, value: copyRaw(m.value) })),
  );
}
