// The canonical JSON form of a Service, as kube-apiserver writes it: `kind`, `apiVersion`, then
// metadata/spec/status in Go struct order with Go's omitempty. JSON.stringify of the result is
// the byte form used for no-op detection (§4.5) and for the stored event payloads.
// Note: Go's encoder additionally escapes <, >, & and U+2028/U+2029 in strings; that is a
// concern of the HTTP writer, not of this object form.
import { type Service } from '../service.types';
import { encodeStruct, type EncodeOptions } from './schema-encoder';
import { serviceSchema } from './service-schema';

/**
 * A new plain Service object in canonical key order, `kind: "Service"` and `apiVersion: "v1"`
 * first; fields svctrail does not know are dropped unless `keepUnknownFields` (mirror mode).
 */
export function encodeService(obj: Service, options?: EncodeOptions): Service {
  const body = encodeStruct(serviceSchema, { ...obj, kind: 'Service', apiVersion: 'v1' }, options);
  return body as unknown as Service;
}

/** The form of a ServiceList item: the same, without `kind`/`apiVersion`. */
export function encodeServiceForList(obj: Service): Service {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = encodeService(obj);
  return rest;
}
