// A 400 from decoding an object body (a Service, an Event). `decoderMessage` is the bare decoder error (e.g.
// `json: cannot unmarshal ...` or `strict decoding error: unknown field "spec.foo"`): the PATCH
// path needs it to build its own 422 (`patch: Invalid value: "<patched json>": <decoder error>`).
import { BadRequestError } from '../errors/domain-errors';

export class ObjectDecodeError extends BadRequestError {
  constructor(
    message: string,
    readonly decoderMessage: string,
  ) {
    super(message);
  }
}
