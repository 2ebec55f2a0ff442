// The envelope of every Kubernetes protobuf body (apimachinery runtime/serializer/protobuf): the
// magic prefix `k8s\0`, then a runtime.Unknown {typeMeta 1 {apiVersion 1, kind 2}, raw 2,
// contentEncoding 3, contentType 4} whose raw holds the object's own message. Watch streams
// frame each event as a 4-byte big-endian length and a bare meta/v1 WatchEvent {type 1,
// object 2 RawExtension {raw 1}}, the raw being a full envelope.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { ProtobufDecodeError } from './protobuf-decode-error';
import { WireReader } from './wire-reader';

export const PROTOBUF_PREFIX = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

/** A body the protobuf serializer refuses before it looks inside (Serializer.Decode). */
export class EnvelopeError extends ProtobufDecodeError {}

export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const w = new BinaryWriter();
  w.raw(PROTOBUF_PREFIX);
  // Go writes Unknown's non-pointer fields even when empty, as kubectl's bodies show.
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(apiVersion);
  w.tag(2, WireType.LengthDelimited).string(kind);
  w.join();
  w.tag(2, WireType.LengthDelimited).bytes(raw);
  w.tag(3, WireType.LengthDelimited).string('');
  w.tag(4, WireType.LengthDelimited).string('');
  return w.finish();
}

function readFields(bytes: Uint8Array, message: string, names: Record<number, string>, visit: (no: number, value: Uint8Array) => void): void {
  const r = new WireReader(bytes);
  while (!r.done) {
    const { no, wireType } = r.tag(message);
    if (names[no] === undefined) {
      r.skip(no, wireType);
      continue;
    }
    r.expect(wireType, WireType.LengthDelimited, names[no]);
    visit(no, r.bytes());
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Serializer.Decode up to the inner message: prefix checks, then runtime.Unknown. */
export function decodeEnvelope(body: Uint8Array): Envelope {
  if (body.length === 0) throw new EnvelopeError('empty data');
  const prefixed = body.length >= PROTOBUF_PREFIX.length && PROTOBUF_PREFIX.every((b, i) => body[i] === b);
  if (!prefixed) throw new EnvelopeError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  if (body.length === PROTOBUF_PREFIX.length) throw new EnvelopeError('empty body');
  const envelope: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0) };
  readFields(body.subarray(PROTOBUF_PREFIX.length), 'Unknown', { 1: 'TypeMeta', 2: 'Raw', 3: 'ContentEncoding', 4: 'ContentType' }, (no, value) => {
    if (no === 1) {
      readFields(value, 'TypeMeta', { 1: 'APIVersion', 2: 'Kind' }, (field, text) => {
        if (field === 1) envelope.apiVersion = utf8.decode(text);
        else envelope.kind = utf8.decode(text);
      });
    } else if (no === 2) envelope.raw = value;
  });
  return envelope;
}

/** One frame of a `;stream=watch` protobuf stream. */
export function encodeWatchFrame(type: string, object: Uint8Array): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).string(type);
  w.tag(2, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).bytes(object);
  w.join();
  const event = w.finish();
  const frame = new Uint8Array(4 + event.length);
  new DataView(frame.buffer).setUint32(0, event.length, false);
  frame.set(event, 4);
  return frame;
}

/** Reads the frames of a watch stream back (for clients and tests); a partial tail stays in `rest`. */
export function decodeWatchFrames(stream: Uint8Array<ArrayBufferLike>): { events: { type: string; object: Uint8Array }[]; rest: Uint8Array } {
  const events: { type: string; object: Uint8Array }[] = [];
  let offset = 0;
  while (stream.length - offset >= 4) {
    const length = new DataView(stream.buffer, stream.byteOffset + offset).getUint32(0, false);
    if (stream.length - offset - 4 < length) break;
    const event: { type: string; object: Uint8Array } = { type: '', object: new Uint8Array(0) };
    readFields(stream.subarray(offset + 4, offset + 4 + length), 'WatchEvent', { 1: 'Type', 2: 'Object' }, (no, value) => {
      if (no === 1) event.type = utf8.decode(value);
      else readFields(value, 'RawExtension', { 1: 'Raw' }, (_field, raw) => (event.object = raw));
    });
    events.push(event);
    offset += 4 + length;
  }
  return { events, rest: stream.subarray(offset) };
}
