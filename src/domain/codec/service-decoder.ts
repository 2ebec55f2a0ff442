// Decoding a Service request body the way kube-apiserver v1.32 does (handlers/create.go and
// update.go → versioning codec → json.Serializer.Decode → sigs.k8s.io/json), including the
// BadRequest texts built by transformDecodeError (handlers/rest.go):
//   - kind known:   `Service in version "v1" cannot be handled as a Service: <decoder error>`
//   - kind unknown: `the object provided is unrecognized (must be of type Service): <err> (<first 30 bytes>)`
// Defaulting is NOT applied here: call applyServiceDefaults on the result (§1.1).
import { type Service } from '../service.types';
import { BadRequestError } from '../errors/domain-errors';
import { strconvQuote } from './go-quote';
import { JsonSyntaxError } from './json-syntax-error';
import { readJson } from './json-reader';
import { fromPlainJson, type JsonValue } from './json-value';
import { notRegisteredMessage, registeredGoType, groupVersionString } from './registered-kinds';
import { decodeWithSchema, GoUnmarshalError } from './schema-decoder';
import { ServiceDecodeError } from './service-decode-error';
import { serviceSchema } from './service-schema';
import { type GroupVersionKind, gvkWithDefaults, interpretTypeMeta } from './type-meta-interpreter';
import { decodeEnvelope } from './protobuf/kube-envelope';
import { decodeMessage } from './protobuf/proto-message-codec';
import { ProtobufDecodeError } from './protobuf/protobuf-decode-error';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface DecodeServiceOptions {
  fieldValidation: FieldValidation;
  /** Maximum JSON nesting depth (default 100). */
  maxDepth?: number;
}

export interface DecodeServiceResult {
  object: Service;
  /** Warning texts for `Warning: 299 - "<text>"` headers (fieldValidation=Warn only). */
  warnings: string[];
}

/** handlers/rest.go summarizeData(body, 30). */
export function summarizeBody(body: Buffer, maxLength = 30): string {
  if (body.length === 0) return '<empty>';
  if (body[0] === 0x7b) {
    if (body.length <= maxLength) return body.toString('utf8');
    // Go cuts bytes; a split character becomes one U+FFFD per byte when JSON-encoded.
    let end = maxLength;
    while (end > 0 && (body[end] & 0xc0) === 0x80) end--;
    return body.toString('utf8', 0, end) + '\ufffd'.repeat(maxLength - end) + ' ...';
  }
  if (body.length > maxLength) return body.subarray(0, maxLength).toString('hex') + ' ...';
  return body.toString('hex');
}

/** A body as received: JSON text (its bytes made only for an error's quote) or protobuf bytes. */
type RequestBody = string | Buffer;

const bodyBytes = (body: RequestBody): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

function unrecognized(error: string, body: RequestBody): ServiceDecodeError {
  return new ServiceDecodeError(`the object provided is unrecognized (must be of type Service): ${error} (${summarizeBody(bodyBytes(body))})`, error);
}

function cannotBeHandled(gvk: GroupVersionKind, error: string): ServiceDecodeError {
  return new ServiceDecodeError(`${gvk.kind} in version ${strconvQuote(gvk.version)} cannot be handled as a Service: ${error}`, error);
}

/** The request's group/version/kind, or the error kube-apiserver gives when it is not v1 Service. */
function serviceGvk(json: JsonValue, body: RequestBody): GroupVersionKind {
  const interpreted = interpretTypeMeta(json);
  if (!interpreted.ok) throw unrecognized(interpreted.error, body);
  // The request's default GVK (v1 Service), then the `into` object's internal kind.
  let gvk = gvkWithDefaults(interpreted.gvk, { group: '', version: 'v1', kind: 'Service' });
  gvk = gvkWithDefaults(gvk, { group: '', version: '__internal', kind: 'Service' });
  if (!gvk.version) {
    // runtime.NewMissingVersionErr carries the whole body.
    throw cannotBeHandled(gvk, `Object 'apiVersion' is missing in '${bodyBytes(body).toString('utf8')}'`);
  }
  const isV1Service = gvk.group === '' && gvk.version === 'v1' && gvk.kind === 'Service';
  if (!isV1Service) {
    if (gvk.group === '' && gvk.version === '__internal' && gvk.kind === 'Service') {
      // Decodes into the internal type itself; create.go then rejects the group/version.
      throw new BadRequestError(`the API version in the data (${groupVersionString(gvk.group, gvk.version)}) does not match the expected API version (v1)`);
    }
    const goType = registeredGoType(gvk.group, gvk.version, gvk.kind);
    const error = goType ? `converting (${goType}) to (core.Service): unknown conversion` : notRegisteredMessage(gvk.group, gvk.version, gvk.kind, strconvQuote);
    throw cannotBeHandled(gvk, error);
  }
  return gvk;
}

function decodeParsed(json: JsonValue, body: RequestBody, opts: DecodeServiceOptions): DecodeServiceResult {
  const gvk = serviceGvk(json, body);
  let decoded;
  try {
    decoded = decodeWithSchema(json, serviceSchema, { strict: opts.fieldValidation !== 'Ignore' });
  } catch (e) {
    if (e instanceof GoUnmarshalError) throw cannotBeHandled(gvk, e.message);
    throw e;
  }
  const warnings: string[] = [];
  if (decoded.strictErrors.length > 0) {
    if (opts.fieldValidation === 'Strict') {
      throw cannotBeHandled(gvk, `strict decoding error: ${decoded.strictErrors.join(', ')}`);
    }
    warnings.push(...decoded.strictErrors);
  }
  const object = { ...decoded.value, kind: 'Service', apiVersion: 'v1' } as unknown as Service;
  return { object, warnings };
}

/** Decodes a request body (text as received). Throws ServiceDecodeError / BadRequestError. */
export function decodeService(text: string, opts: DecodeServiceOptions): DecodeServiceResult {
  let json: JsonValue;
  try {
    json = readJson(text, { maxDepth: opts.maxDepth });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw unrecognized(`couldn't get version/kind; json parse error: ${e.message}`, text);
    throw e;
  }
  return decodeParsed(json, text, opts);
}

/**
 * Decodes a protobuf body (`k8s\0` + runtime.Unknown + Service) with the very rules of a JSON
 * body: the envelope's kind/apiVersion are checked as a JSON body's would be, and the Service
 * message becomes the JSON that Go would write for it (protobuf has no strict mode: unknown
 * field numbers are skipped, as kube-apiserver does).
 */
export function decodeServiceProtobuf(body: Buffer, opts: DecodeServiceOptions): DecodeServiceResult {
  let envelope;
  try {
    envelope = decodeEnvelope(body);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw unrecognized(e.message, body);
    throw e;
  }
  const typeMeta: Record<string, string> = {};
  if (envelope.apiVersion) typeMeta.apiVersion = envelope.apiVersion;
  if (envelope.kind) typeMeta.kind = envelope.kind;
  const gvk = serviceGvk(fromPlainJson(typeMeta), body);
  let view;
  try {
    view = decodeMessage(serviceSchema, envelope.raw);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw cannotBeHandled(gvk, e.message);
    throw e;
  }
  return decodeParsed(fromPlainJson({ ...typeMeta, ...view }), body, opts);
}

/**
 * Decodes an already-parsed JS value (e.g. a patched object) with the same semantics, as if it
 * had been serialised with JSON.stringify. Numbers lose their literal text: pass text to
 * decodeService when the exact Go number errors matter.
 */
export function decodeServiceValue(value: unknown, opts: DecodeServiceOptions): DecodeServiceResult {
  // `undefined` serialises to nothing: the empty body.
  if (value === undefined) return decodeService('', opts);
  return decodeParsed(fromPlainJson(value), Buffer.from(JSON.stringify(value), 'utf8'), opts);
}
