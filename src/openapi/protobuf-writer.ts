// The slice of the protobuf wire format the gnostic OpenAPI v2 message needs: varints and
// length-delimited fields (strings, embedded messages). Field order is the caller's.

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;

export function encodeVarint(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint out of range: ${value}`);
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function tag(field: number, wireType: number): Buffer {
  return encodeVarint(field * 8 + wireType);
}

/** A length-delimited field, written even when empty (repeated strings, present sub-messages). */
export function lengthDelimitedField(field: number, payload: Buffer): Buffer {
  return Buffer.concat([tag(field, WIRE_LENGTH_DELIMITED), encodeVarint(payload.length), payload]);
}

/** A singular proto3 string: the empty string is the default and is not written. */
export function stringField(field: number, value: string): Buffer {
  return value === '' ? Buffer.alloc(0) : lengthDelimitedField(field, Buffer.from(value, 'utf8'));
}

export function repeatedStringField(field: number, values: readonly string[]): Buffer {
  return Buffer.concat(values.map((v) => lengthDelimitedField(field, Buffer.from(v, 'utf8'))));
}

export function messageField(field: number, ...parts: Buffer[]): Buffer {
  return lengthDelimitedField(field, Buffer.concat(parts));
}

/** A singular proto3 bool: false is the default and is not written, unless `always` (oneof members). */
export function boolField(field: number, value: boolean, always = false): Buffer {
  return value || always ? Buffer.concat([tag(field, WIRE_VARINT), encodeVarint(value ? 1 : 0)]) : Buffer.alloc(0);
}
