// A test-only protobuf reader: splits a message into its fields so tests can check what the
// hand-written encoder produced without a protobuf library or the .proto compiled.

export interface ProtobufField {
  field: number;
  wireType: number;
  /** The varint value (wire type 0) */
  varint?: number;
  /** The payload (wire type 2) */
  bytes?: Buffer;
}

function readVarint(buf: Buffer, offset: number): [number, number] {
  let value = 0;
  let scale = 1;
  let pos = offset;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const byte = buf[pos++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, pos];
    scale *= 0x80;
  }
}

export function readFields(buf: Buffer): ProtobufField[] {
  const fields: ProtobufField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, afterKey] = readVarint(buf, pos);
    const field = Math.floor(key / 8);
    const wireType = key % 8;
    if (wireType === 0) {
      const [varint, next] = readVarint(buf, afterKey);
      fields.push({ field, wireType, varint });
      pos = next;
    } else if (wireType === 2) {
      const [length, start] = readVarint(buf, afterKey);
      if (start + length > buf.length) throw new Error('truncated length-delimited field');
      fields.push({ field, wireType, bytes: buf.subarray(start, start + length) });
      pos = start + length;
    } else {
      throw new Error(`unexpected wire type ${wireType}`);
    }
  }
  return fields;
}

/** Every payload of length-delimited field `n`. */
export function messages(buf: Buffer | undefined, n: number): Buffer[] {
  if (buf === undefined) return [];
  return readFields(buf)
    .filter((f) => f.field === n && f.bytes !== undefined)
    .map((f) => f.bytes!);
}

export function message(buf: Buffer | undefined, n: number): Buffer | undefined {
  return messages(buf, n)[0];
}

export function str(buf: Buffer | undefined, n: number): string | undefined {
  return message(buf, n)?.toString('utf8');
}

/** A map encoded as `repeated Named<X> { name = 1; value = 2; }` in field `n`. */
export function namedEntries(buf: Buffer | undefined, n: number): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  if (buf === undefined) return entries;
  for (const entry of messages(buf, n)) entries.set(str(entry, 1) ?? '', message(entry, 2) ?? Buffer.alloc(0));
  return entries;
}
