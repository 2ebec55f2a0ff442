// Decoding a request body into one kind the way kube-apiserver v1.32 does (handlers/create.go and
// update.go → versioning codec → json.Serializer.Decode → sigs.k8s.io/json), including the
// BadRequest texts built by transformDecodeError (handlers/rest.go):
//   - kind known:   `Service in version "v1" cannot be handled as a Service: <decoder error>`
//   - kind unknown: `the object provided is unrecognized (must be of type Service): <err> (<first 30 bytes>)`
// One implementation for every kind svctrail accepts; each kind is a DecodedKind (service-decoder.ts,
// kube-event-decoder.ts). Defaulting is not applied here.
import { BadRequestError } from '../errors/domain-errors';
import { strconvQuote } from './go-quote';
import type { StructSchema } from './go-schema';
import { JsonSyntaxError } from './json-syntax-error';
import { readJson } from './json-reader';
import { fromPlainJson, type JsonValue } from './json-value';
import { notRegisteredMessage, registeredGoType, groupVersionString } from './registered-kinds';
import { decodeWithSchema, GoUnmarshalError } from './schema-decoder';
import { ObjectDecodeError } from './object-decode-error';
import { type GroupVersionKind, gvkWithDefaults, interpretTypeMeta } from './type-meta-interpreter';
import { decodeEnvelope } from './protobuf/kube-envelope';
import { decodeMessage } from './protobuf/proto-message-codec';
import { ProtobufDecodeError } from './protobuf/protobuf-decode-error';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface DecodeOptions {
  fieldValidation: FieldValidation;
  /** Maximum JSON nesting depth (default 100). */
  maxDepth?: number;
  /** Keep the fields svctrail does not know where they were (a mirror's observed object; never a request body). */
  keepUnknownFields?: boolean;
}

export interface DecodeResult<T> {
  object: T;
  /** Warning texts for `Warning: 299 - "<text>"` headers (fieldValidation=Warn only). */
  warnings: string[];
}

/** One kind a resource endpoint decodes, and the Go names its errors use. */
export interface DecodedKind {
  group: string;
  version: string;
  kind: string;
  schema: StructSchema;
  /** The internal type's Go name in conversion errors (`core.Service`). */
  internalGoType: string;
  /**
   * Other group versions of the same kind that convert into the same internal type (an Event of
   * events.k8s.io/v1 posted to core/v1): they decode, then create.go refuses the group version.
   */
  convertible?: readonly { group: string; version: string }[];
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

function unrecognized(target: DecodedKind, error: string, body: RequestBody): ObjectDecodeError {
  return new ObjectDecodeError(`the object provided is unrecognized (must be of type ${target.kind}): ${error} (${summarizeBody(bodyBytes(body))})`, error);
}

function cannotBeHandled(target: DecodedKind, gvk: GroupVersionKind, error: string): ObjectDecodeError {
  return new ObjectDecodeError(`${gvk.kind} in version ${strconvQuote(gvk.version)} cannot be handled as a ${target.kind}: ${error}`, error);
}

/** The request's group/version/kind, or the error kube-apiserver gives when it is not the target kind. */
function requestGvk(target: DecodedKind, json: JsonValue, body: RequestBody): GroupVersionKind {
  const interpreted = interpretTypeMeta(json);
  if (!interpreted.ok) throw unrecognized(target, interpreted.error, body);
  // The request's default GVK, then the `into` object's internal kind.
  let gvk = gvkWithDefaults(interpreted.gvk, { group: target.group, version: target.version, kind: target.kind });
  gvk = gvkWithDefaults(gvk, { group: target.group, version: '__internal', kind: target.kind });
  if (!gvk.version) {
    // runtime.NewMissingVersionErr carries the whole body.
    throw cannotBeHandled(target, gvk, `Object 'apiVersion' is missing in '${bodyBytes(body).toString('utf8')}'`);
  }
  if (gvk.group === target.group && gvk.version === target.version && gvk.kind === target.kind) return gvk;
  const expected = groupVersionString(target.group, target.version);
  const mismatch = () => new BadRequestError(`the API version in the data (${groupVersionString(gvk.group, gvk.version)}) does not match the expected API version (${expected})`);
  // Decodes into the internal type itself (or converts into it); create.go then rejects the group/version.
  if (gvk.kind === target.kind && gvk.version === '__internal' && gvk.group === target.group) throw mismatch();
  if (gvk.kind === target.kind && target.convertible?.some((c) => c.group === gvk.group && c.version === gvk.version)) throw mismatch();
  const goType = registeredGoType(gvk.group, gvk.version, gvk.kind);
  const error = goType ? `converting (${goType}) to (${target.internalGoType}): unknown conversion` : notRegisteredMessage(gvk.group, gvk.version, gvk.kind, strconvQuote);
  throw cannotBeHandled(target, gvk, error);
}

function decodeParsed<T>(target: DecodedKind, json: JsonValue, body: RequestBody, opts: DecodeOptions): DecodeResult<T> {
  const gvk = requestGvk(target, json, body);
  let decoded;
  try {
    decoded = decodeWithSchema(json, target.schema, { strict: opts.fieldValidation !== 'Ignore', keepUnknownFields: opts.keepUnknownFields });
  } catch (e) {
    if (e instanceof GoUnmarshalError) throw cannotBeHandled(target, gvk, e.message);
    throw e;
  }
  const warnings: string[] = [];
  if (decoded.strictErrors.length > 0) {
    if (opts.fieldValidation === 'Strict') {
      throw cannotBeHandled(target, gvk, `strict decoding error: ${decoded.strictErrors.join(', ')}`);
    }
    warnings.push(...decoded.strictErrors);
  }
  const object = { ...decoded.value, kind: target.kind, apiVersion: groupVersionString(target.group, target.version) } as T;
  return { object, warnings };
}

/** Decodes a request body (text as received). Throws ObjectDecodeError / BadRequestError. */
export function decodeObjectText<T>(target: DecodedKind, text: string, opts: DecodeOptions): DecodeResult<T> {
  let json: JsonValue;
  try {
    json = readJson(text, { maxDepth: opts.maxDepth });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw unrecognized(target, `couldn't get version/kind; json parse error: ${e.message}`, text);
    throw e;
  }
  return decodeParsed(target, json, text, opts);
}

/**
 * Decodes a protobuf body (`k8s\0` + runtime.Unknown + the message) with the very rules of a JSON
 * body: the envelope's kind/apiVersion are checked as a JSON body's would be, and the message
 * becomes the JSON that Go would write for it (protobuf has no strict mode: unknown field numbers
 * are skipped, as kube-apiserver does).
 */
export function decodeObjectProtobuf<T>(target: DecodedKind, body: Buffer, opts: DecodeOptions): DecodeResult<T> {
  let envelope;
  try {
    envelope = decodeEnvelope(body);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw unrecognized(target, e.message, body);
    throw e;
  }
  const typeMeta: Record<string, string> = {};
  if (envelope.apiVersion) typeMeta.apiVersion = envelope.apiVersion;
  if (envelope.kind) typeMeta.kind = envelope.kind;
  const gvk = requestGvk(target, fromPlainJson(typeMeta), body);
  let view;
  try {
    view = decodeMessage(target.schema, envelope.raw);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw cannotBeHandled(target, gvk, e.message);
    throw e;
  }
  return decodeParsed(target, fromPlainJson({ ...typeMeta, ...view }), body, opts);
}

/**
 * Decodes an already-parsed JS value (e.g. a patched object) with the same semantics, as if it
 * had been serialised with JSON.stringify. Numbers lose their literal text: pass text to
 * decodeObjectText when the exact Go number errors matter.
 */
export function decodeObjectValue<T>(target: DecodedKind, value: unknown, opts: DecodeOptions): DecodeResult<T> {
  // `undefined` serialises to nothing: the empty body.
  if (value === undefined) return decodeObjectText(target, '', opts);
  return decodeParsed(target, fromPlainJson(value), Buffer.from(JSON.stringify(value), 'utf8'), opts);
}
