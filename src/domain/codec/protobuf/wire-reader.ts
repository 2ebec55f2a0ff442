// Reading protobuf fields with the checks and error texts of gogo-protobuf's generated Unmarshal
// (ErrIntOverflowGenerated, ErrInvalidLengthGenerated, io.ErrUnexpectedEOF, wrong wire types),
// on top of @bufbuild/protobuf's varint decoding.
/* eslint-disable @typescript-eslint/no-unsafe-enum-comparison -- wire types come off the stream as plain numbers (0-7, some of them invalid) and are compared with WireType's values on purpose */
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { ProtobufDecodeError } from './protobuf-decode-error';

export class WireReader {
  private readonly reader: BinaryReader;

  constructor(private readonly buf: Uint8Array) {
    this.reader = new BinaryReader(buf);
  }

  get done(): boolean {
    return this.reader.pos >= this.buf.length;
  }

  private guarded<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof ProtobufDecodeError) throw error;
      throw new ProtobufDecodeError(/invalid varint|overflow/.test((error as Error).message) ? 'proto: integer overflow' : 'unexpected EOF');
    }
  }

  /** A field's number and wire type; `message` names the Go type in gogo's errors. */
  tag(message: string): { no: number; wireType: number } {
    const tag = BigInt(this.guarded(() => this.reader.uint64()));
    const no = Number(BigInt.asIntN(32, tag >> 3n));
    const wireType = Number(tag & 7n);
    if (wireType === WireType.EndGroup) throw new ProtobufDecodeError(`proto: ${message}: wiretype end group for non-group`);
    if (no <= 0) throw new ProtobufDecodeError(`proto: ${message}: illegal tag ${no} (wire type ${wireType})`);
    return { no, wireType };
  }

  /** The payload of a length-delimited field. */
  bytes(): Uint8Array {
    const length = BigInt(this.guarded(() => this.reader.int64()));
    if (length < 0n) throw new ProtobufDecodeError('proto: negative length found during unmarshaling');
    const start = this.reader.pos;
    if (BigInt(start) + length > BigInt(this.buf.length)) throw new ProtobufDecodeError('unexpected EOF');
    this.reader.pos = start + Number(length);
    return this.buf.subarray(start, this.reader.pos);
  }

  string(): string {
    return utf8.decode(this.bytes());
  }

  bool(): boolean {
    return this.guarded(() => this.reader.bool());
  }

  /** int32 fields keep the low 32 bits of the varint, as Go's conversion does. */
  int32(): number {
    return this.guarded(() => this.reader.int32());
  }

  int64(): bigint {
    return BigInt(this.guarded(() => this.reader.int64()));
  }

  /** Skips a field this message does not know (a newer client's). */
  skip(no: number, wireType: number): void {
    if (wireType === WireType.LengthDelimited) {
      this.bytes();
      return;
    }
    if (wireType === WireType.Varint) {
      this.guarded(() => this.reader.uint64()); // checks the 10-byte limit, as gogo's skip does
      return;
    }
    if (wireType === WireType.Bit32 || wireType === WireType.Bit64 || wireType === WireType.StartGroup) {
      this.guarded(() => this.reader.skip(wireType, no));
      return;
    }
    throw new ProtobufDecodeError(`proto: illegal wireType ${wireType}`);
  }

  /** Fails like gogo when a known field arrives with another wire type. */
  expect(wireType: number, expected: WireType, goField: string): void {
    if (wireType !== expected) throw new ProtobufDecodeError(`proto: wrong wireType = ${wireType} for field ${goField}`);
  }
}

/** Go strings hold any bytes; encoding/json later writes invalid UTF-8 as U+FFFD, as this does. */
const utf8 = new TextDecoder('utf-8', { fatal: false });
