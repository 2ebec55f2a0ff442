import { boolField, encodeVarint, messageField, repeatedStringField, stringField } from './protobuf-writer';

describe('protobuf writer', () => {
  it('writes varints little-endian in 7-bit groups', () => {
    expect(encodeVarint(0)).toEqual(Buffer.from([0]));
    expect(encodeVarint(127)).toEqual(Buffer.from([0x7f]));
    expect(encodeVarint(128)).toEqual(Buffer.from([0x80, 0x01]));
    expect(encodeVarint(300)).toEqual(Buffer.from([0xac, 0x02]));
    // Above 2^31, where `>>>` arithmetic would break.
    expect(encodeVarint(2 ** 35)).toEqual(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]));
    expect(() => encodeVarint(-1)).toThrow(RangeError);
  });

  it('writes strings with tag and length, leaving out the proto3 default', () => {
    expect(stringField(1, '2.0')).toEqual(Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]));
    expect(stringField(1, '')).toHaveLength(0);
    expect(stringField(1, 'é')).toEqual(Buffer.from([0x0a, 0x02, 0xc3, 0xa9]));
  });

  it('keeps empty strings in repeated fields and empty sub-messages', () => {
    expect(repeatedStringField(5, ['', 'a'])).toEqual(Buffer.from([0x2a, 0x00, 0x2a, 0x01, 0x61]));
    expect(messageField(2)).toEqual(Buffer.from([0x12, 0x00]));
  });

  it('writes nested messages with a multi-byte length', () => {
    const inner = stringField(1, 'x'.repeat(200));
    const outer = messageField(8, inner);
    expect(outer.subarray(0, 3)).toEqual(Buffer.from([0x42, 0xcb, 0x01]));
    expect(outer).toHaveLength(3 + inner.length);
  });

  it('writes true, and false only for oneof members', () => {
    expect(boolField(4, true)).toEqual(Buffer.from([0x20, 0x01]));
    expect(boolField(4, false)).toHaveLength(0);
    expect(boolField(2, false, true)).toEqual(Buffer.from([0x10, 0x00]));
  });
});
