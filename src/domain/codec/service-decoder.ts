// Decoding a Service request body (JSON, YAML as JSON, or protobuf) as kube-apiserver v1.32 does:
// the generic object decoder (object-decoder.ts) with core/v1 Service as its kind. Defaulting
// is NOT applied here: call applyServiceDefaults on the result (§1.1).
import { type Service } from '../service.types';
import { decodeObjectProtobuf, decodeObjectText, decodeObjectValue, type DecodedKind, type DecodeOptions, type DecodeResult } from './object-decoder';
import { serviceSchema } from './service-schema';

export { summarizeBody, type FieldValidation } from './object-decoder';
export type DecodeServiceResult = DecodeResult<Service>;

const SERVICE: DecodedKind = { group: '', version: 'v1', kind: 'Service', schema: serviceSchema, internalGoType: 'core.Service' };

export const decodeService = (text: string, opts: DecodeOptions): DecodeServiceResult => decodeObjectText<Service>(SERVICE, text, opts);
export const decodeServiceProtobuf = (body: Buffer, opts: DecodeOptions): DecodeServiceResult => decodeObjectProtobuf<Service>(SERVICE, body, opts);
export const decodeServiceValue = (value: unknown, opts: DecodeOptions): DecodeServiceResult => decodeObjectValue<Service>(SERVICE, value, opts);
