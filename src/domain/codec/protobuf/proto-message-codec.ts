// Kubernetes protobuf messages <-> the JSON view of the same Go structs, the way gogo-protobuf's
// generated Marshal/Unmarshal in k8s.io/api and apimachinery treat them:
//   - encode: fields in field-number order; non-pointer scalars and structs always written, even
//     when zero; pointer fields only when set; repeated fields unpacked and only when non-empty;
//     map entries sorted by key; metav1.Time as {seconds, nanos = 0} and the zero time as an empty
//     message; IntOrString with all three fields.
//   - decode: absent means zero for non-pointer fields, presence makes a pointer non-nil, unknown
//     field numbers are skipped, a repeated singular message merges into the one before it (as
//     gogo's Unmarshal does), and the errors carry gogo's texts.
// The JSON view is what encoding/json would write for the decoded Go value (schema-encoder.ts),
// so a protobuf body can be handed to exactly the decode rules of a JSON body.
// The wire format itself (varints, tags, lengths) is @bufbuild/protobuf's.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { FieldSchema, GoType, StructSchema } from '../go-schema';
import { formatRfc3339Utc, GO_ZERO_TIME_SECONDS, parseRfc3339 } from '../go-time';
import { encodeStruct } from '../schema-encoder';
import { wireFields } from './kube-proto-layout';
import { ProtobufDecodeError } from './protobuf-decode-error';
import { WireReader } from './wire-reader';
import { compareGoStrings } from '../../go-string-order';

type Plain = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Encoding

const textEncoder = new TextEncoder();

/** Unix seconds and nanoseconds of a JSON-view time; undefined for null/zero/unparseable. */
function timeParts(value: unknown, micro: boolean): { seconds: number; nanos: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = parseRfc3339(value);
  if (!parsed.ok || parsed.seconds === GO_ZERO_TIME_SECONDS) return undefined;
  if (!micro) return { seconds: parsed.seconds, nanos: 0 };
  const fraction = /[.,](\d+)/.exec(value.slice(19))?.[1] ?? '';
  return { seconds: parsed.seconds, nanos: Number((fraction + '000000000').slice(0, 9)) };
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function writeValue(w: BinaryWriter, no: number, type: GoType, value: unknown): void {
  switch (type.kind) {
    case 'string':
      w.tag(no, WireType.LengthDelimited).string(typeof value === 'string' ? value : '');
      return;
    case 'bool':
      w.tag(no, WireType.Varint).bool(value === true);
      return;
    case 'int':
      if (type.bits === 32) w.tag(no, WireType.Varint).int32(typeof value === 'number' ? value : 0);
      else w.tag(no, WireType.Varint).int64(typeof value === 'number' || typeof value === 'bigint' ? value : 0);
      return;
    case 'struct':
      w.tag(no, WireType.LengthDelimited).fork();
      writeMessage(w, type.struct, (isSet(value) ? value : {}) as Plain);
      w.join();
      return;
    case 'time': {
      w.tag(no, WireType.LengthDelimited).fork();
      const parts = timeParts(value, type.micro === true);
      if (parts) w.tag(1, WireType.Varint).int64(parts.seconds).tag(2, WireType.Varint).int32(parts.nanos);
      w.join();
      return;
    }
    case 'intOrString': {
      const isString = typeof value === 'string';
      w.tag(no, WireType.LengthDelimited).fork();
      w.tag(1, WireType.Varint).int64(isString ? 1 : 0);
      w.tag(2, WireType.Varint).int32(isString ? 0 : typeof value === 'number' ? value : 0);
      w.tag(3, WireType.LengthDelimited).string(isString ? value : '');
      w.join();
      return;
    }
    case 'rawJson':
      // metav1.FieldsV1{Raw}: the field set's JSON bytes.
      w.tag(no, WireType.LengthDelimited).fork();
      w.tag(1, WireType.LengthDelimited).bytes(textEncoder.encode(JSON.stringify(value)));
      w.join();
      return;
    case 'stringMap': {
      const map = (value ?? {}) as Record<string, string>;
      // sort.Strings: byte order, which for UTF-8 is code point order.
      for (const key of Object.keys(map).sort(compareGoStrings)) {
        w.tag(no, WireType.LengthDelimited).fork();
        w.tag(1, WireType.LengthDelimited).string(key);
        w.tag(2, WireType.LengthDelimited).string(map[key] ?? '');
        w.join();
      }
      return;
    }
    case 'stringListMap': {
      // map<string, ExtraValue>: each entry is {1: key, 2: ExtraValue{1: repeated items}}, the
      // value message always written, even when empty.
      const map = (value ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(map).sort(compareGoStrings)) {
        const list = map[key];
        w.tag(no, WireType.LengthDelimited).fork();
        w.tag(1, WireType.LengthDelimited).string(key);
        w.tag(2, WireType.LengthDelimited).fork();
        if (Array.isArray(list)) for (const item of list) w.tag(1, WireType.LengthDelimited).string(typeof item === 'string' ? item : '');
        w.join();
        w.join();
      }
      return;
    }
    case 'slice':
      if (Array.isArray(value)) for (const item of value) writeValue(w, no, type.elem, item);
      return;
  }
}

function writeMessage(w: BinaryWriter, schema: StructSchema, value: Plain): void {
  for (const { no, schema: field } of wireFields(schema).ordered) {
    const v = value[field.json];
    if (field.pointer && !isSet(v)) continue;
    writeValue(w, no, field.type, v);
  }
}

/** The bytes of one message (no envelope) from its JSON view. */
export function encodeMessage(schema: StructSchema, value: object): Uint8Array {
  const w = new BinaryWriter();
  writeMessage(w, schema, value as Plain);
  return w.finish();
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** intstr.IntOrString while its fields arrive (they may come in any order, or repeat). */
class IntOrStringValue {
  type = 0;
  intVal = 0;
  strVal = '';
}

function expectedWireType(type: GoType): WireType {
  const scalar = type.kind === 'slice' ? type.elem : type;
  return scalar.kind === 'bool' || scalar.kind === 'int' ? WireType.Varint : WireType.LengthDelimited;
}

/** An int64 as a JS number when it is one exactly, else as a bigint (the JSON view keeps its digits). */
function int64Value(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

function decodeTime(bytes: Uint8Array, micro: boolean): string | null {
  // metav1.Time.Unmarshal: empty data is the zero time; otherwise a Timestamp. Time drops the
  // nanoseconds (its JSON has whole seconds); MicroTime keeps them down to the microsecond.
  if (bytes.length === 0) return null;
  let seconds = 0n;
  let nanos = 0;
  const r = new WireReader(bytes);
  while (!r.done) {
    const { no, wireType } = r.tag('Timestamp');
    if (no === 1 || no === 2) {
      r.expect(wireType, WireType.Varint, no === 1 ? 'Seconds' : 'Nanos');
      if (no === 1) seconds = r.int64();
      else nanos = r.int32();
    } else r.skip(no, wireType);
  }
  // time.Unix normalises nanos outside [0, 1e9) into the seconds.
  const totalNanos = seconds * 1_000_000_000n + BigInt(nanos);
  const wholeSeconds = totalNanos / 1_000_000_000n - (totalNanos % 1_000_000_000n < 0n ? 1n : 0n);
  const s = micro ? wholeSeconds : seconds;
  if (Number(s) === GO_ZERO_TIME_SECONDS && (!micro || totalNanos % 1_000_000_000n === 0n)) return null;
  const base = formatRfc3339Utc(Number(s));
  if (!micro) return base;
  const micros = String((totalNanos - wholeSeconds * 1_000_000_000n) / 1000n).padStart(6, '0');
  return `${base.slice(0, -1)}.${micros}Z`;
}

function decodeStringMap(bytes: Uint8Array, target: Record<string, string>): void {
  // gogo's map entry loop: key 1 and value 2 as length-delimited, anything else skipped.
  let key = '';
  let value = '';
  const r = new WireReader(bytes);
  while (!r.done) {
    const { no, wireType } = r.tag('MapEntry');
    if (no === 1) key = r.string();
    else if (no === 2) value = r.string();
    else r.skip(no, wireType);
  }
  target[key] = value;
}

function decodeStringListMap(bytes: Uint8Array, valueName: string, target: Record<string, string[] | null>): void {
  // gogo's map entry loop: an absent value is an empty ExtraValue (a nil slice), a repeated key
  // replaces the earlier entry.
  let key = '';
  let items: string[] | null = null;
  const r = new WireReader(bytes);
  while (!r.done) {
    const { no, wireType } = r.tag('MapEntry');
    if (no === 1) key = r.string();
    else if (no === 2) {
      const inner = new WireReader(r.bytes());
      const list: string[] = [];
      while (!inner.done) {
        const field = inner.tag(valueName);
        if (field.no === 1) {
          inner.expect(field.wireType, WireType.LengthDelimited, 'Items');
          list.push(inner.string());
        } else inner.skip(field.no, field.wireType);
      }
      items = list.length > 0 ? list : null;
    } else r.skip(no, wireType);
  }
  target[key] = items;
}

function decodeIntOrString(bytes: Uint8Array, target: IntOrStringValue): void {
  const r = new WireReader(bytes);
  while (!r.done) {
    const { no, wireType } = r.tag('IntOrString');
    if (no >= 1 && no <= 3) r.expect(wireType, no === 3 ? WireType.LengthDelimited : WireType.Varint, ['Type', 'IntVal', 'StrVal'][no - 1]);
    if (no === 1) target.type = Number(r.int64());
    else if (no === 2) target.intVal = r.int32();
    else if (no === 3) target.strVal = r.string();
    else r.skip(no, wireType);
  }
}

function decodeFieldsV1(bytes: Uint8Array): unknown {
  let raw: Uint8Array | undefined;
  const r = new WireReader(bytes);
  while (!r.done) {
    const { no, wireType } = r.tag('FieldsV1');
    if (no === 1) {
      r.expect(wireType, WireType.LengthDelimited, 'Raw');
      raw = r.bytes();
    } else r.skip(no, wireType);
  }
  if (!raw) return null;
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new ProtobufDecodeError('json: error calling MarshalJSON for type *v1.FieldsV1: invalid JSON in fieldsV1');
  }
}

function decodeElement(r: WireReader, type: GoType, existing: unknown): unknown {
  switch (type.kind) {
    case 'string':
      return r.string();
    case 'bool':
      return r.bool();
    case 'int':
      return type.bits === 32 ? r.int32() : int64Value(r.int64());
    case 'struct': {
      const target = (existing ?? {}) as Plain;
      decodeInto(r.bytes(), type.struct, target);
      return target;
    }
    case 'time':
      return decodeTime(r.bytes(), type.micro === true);
    case 'intOrString': {
      const target = existing instanceof IntOrStringValue ? existing : new IntOrStringValue();
      decodeIntOrString(r.bytes(), target);
      return target;
    }
    case 'rawJson':
      return decodeFieldsV1(r.bytes());
    case 'stringMap': {
      const target = (existing ?? Object.create(null)) as Record<string, string>;
      decodeStringMap(r.bytes(), target);
      return target;
    }
    case 'stringListMap': {
      const target = (existing ?? Object.create(null)) as Record<string, string[] | null>;
      decodeStringListMap(r.bytes(), type.valueGoName.replace(/^.*\./, ''), target);
      return target;
    }
    case 'slice': {
      const list = (existing ?? []) as unknown[];
      list.push(decodeElement(r, type.elem, undefined));
      return list;
    }
  }
}

function decodeInto(bytes: Uint8Array, schema: StructSchema, target: Plain): void {
  const { byNumber } = wireFields(schema);
  const r = new WireReader(bytes);
  while (!r.done) {
    const { no, wireType } = r.tag(schema.name);
    const wire = byNumber.get(no);
    if (!wire) {
      r.skip(no, wireType);
      continue;
    }
    const field: FieldSchema = wire.schema;
    r.expect(wireType, expectedWireType(field.type), field.goField);
    target[field.json] = decodeElement(r, field.type, target[field.json]);
  }
}

/** Replaces the IntOrString accumulators by their JSON values (number or string). */
function settle(schema: StructSchema, value: Plain): Plain {
  for (const field of schema.fields) {
    const v = value[field.json];
    if (v === undefined) continue;
    const type = field.type.kind === 'slice' ? field.type.elem : field.type;
    if (type.kind === 'intOrString' && v instanceof IntOrStringValue) value[field.json] = v.type === 1 ? v.strVal : v.intVal;
    else if (type.kind === 'struct') {
      if (Array.isArray(v)) for (const item of v) settle(type.struct, item as Plain);
      else settle(type.struct, v as Plain);
    }
  }
  return value;
}

/**
 * Decodes one message (no envelope) into its JSON view: what encoding/json writes for the Go
 * value gogo would have decoded (omitempty applied, Go key order). Throws ProtobufDecodeError.
 */
export function decodeMessage(schema: StructSchema, bytes: Uint8Array): Plain {
  const goValue: Plain = {};
  decodeInto(bytes, schema, goValue);
  return encodeStruct(schema, settle(schema, goValue));
}
