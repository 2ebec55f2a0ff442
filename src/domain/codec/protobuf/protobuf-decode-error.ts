// A protobuf body that gogo-protobuf's Unmarshal would reject; the message is gogo's own text
// ("unexpected EOF", "proto: wrong wireType = 0 for field Name", …), which kube-apiserver puts
// into the 400 it answers.
export class ProtobufDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufDecodeError';
  }
}
