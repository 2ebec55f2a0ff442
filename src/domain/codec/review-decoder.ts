// Decoding a self-review request body (JSON/YAML text or protobuf bytes) the way kube-apiserver's
// create handler does for any built-in kind: the body's kind/apiVersion are defaulted from the
// endpoint, a kind of another group version fails as a conversion or registration error, the
// JSON decoder's type and strict errors become 400 BadRequest with transformDecodeError's texts:
//   - kind known:   `<Kind> in version "v1" cannot be handled as a <Kind>: <decoder error>`
//   - kind unknown: `the object provided is unrecognized (must be of type <Kind>): <err> (<first 30 bytes>)`
// A protobuf body's message is turned into its JSON view and goes through the same rules.
import { BadRequestError } from '../errors/domain-errors';
import type { StructSchema } from './go-schema';
import { strconvQuote } from './go-quote';
import { JsonSyntaxError } from './json-syntax-error';
import { readJson } from './json-reader';
import { fromPlainJson, type JsonValue } from './json-value';
import { decodeEnvelope } from './protobuf/kube-envelope';
import { decodeMessage } from './protobuf/proto-message-codec';
import { ProtobufDecodeError } from './protobuf/protobuf-decode-error';
import { groupVersionString, notRegisteredMessage, registeredGoType } from './registered-kinds';
import { decodeWithSchema, GoUnmarshalError } from './schema-decoder';
import type { FieldValidation } from './service-decoder';
import { summarizeBody } from './service-decoder';
import { type GroupVersionKind, gvkWithDefaults, interpretTypeMeta } from './type-meta-interpreter';

/** What the endpoint decodes into: its group, version, kind and Go struct. */
export interface ReviewTarget {
  group: string;
  version: string;
  kind: string;
  schema: StructSchema;
}

export interface DecodedReview {
  /** The JSON view of the decoded object, kind/apiVersion set to the endpoint's. */
  object: Record<string, unknown>;
  /** Unknown/duplicate field texts for Warning headers (fieldValidation=Warn). */
  warnings: string[];
}

function unrecognized(target: ReviewTarget, error: string, body: Buffer): BadRequestError {
  return new BadRequestError(`the object provided is unrecognized (must be of type ${target.kind}): ${error} (${summarizeBody(body)})`);
}

function cannotBeHandled(target: ReviewTarget, gvk: GroupVersionKind, error: string): BadRequestError {
  return new BadRequestError(`${gvk.kind} in version ${strconvQuote(gvk.version)} cannot be handled as a ${target.kind}: ${error}`);
}

function checkGvk(json: JsonValue, body: Buffer, target: ReviewTarget): GroupVersionKind {
  const interpreted = interpretTypeMeta(json);
  if (!interpreted.ok) throw unrecognized(target, interpreted.error, body);
  const gvk = gvkWithDefaults(interpreted.gvk, { group: target.group, version: target.version, kind: target.kind });
  if (!gvk.version) throw cannotBeHandled(target, gvk, `Object 'apiVersion' is missing in '${body.toString('utf8')}'`);
  if (gvk.group === target.group && gvk.version === target.version && gvk.kind === target.kind) return gvk;
  const goType = registeredGoType(gvk.group, gvk.version, gvk.kind);
  const internal = `${target.group.split('.')[0]}.${target.kind}`;
  throw cannotBeHandled(target, gvk, goType ? `converting (${goType}) to (${internal}): unknown conversion` : notRegisteredMessage(gvk.group, gvk.version, gvk.kind, strconvQuote));
}

function decodeParsed(json: JsonValue, body: Buffer, target: ReviewTarget, fieldValidation: FieldValidation): DecodedReview {
  const gvk = checkGvk(json, body, target);
  let decoded;
  try {
    decoded = decodeWithSchema(json, target.schema, { strict: fieldValidation !== 'Ignore' });
  } catch (e) {
    if (e instanceof GoUnmarshalError) throw cannotBeHandled(target, gvk, e.message);
    throw e;
  }
  if (decoded.strictErrors.length > 0 && fieldValidation === 'Strict') {
    throw cannotBeHandled(target, gvk, `strict decoding error: ${decoded.strictErrors.join(', ')}`);
  }
  const object = { ...decoded.value, kind: target.kind, apiVersion: groupVersionString(target.group, target.version) };
  return { object, warnings: fieldValidation === 'Warn' ? decoded.strictErrors : [] };
}

/** A request body as the content-type parsers hand it over: text (JSON, YAML → JSON) or protobuf bytes. */
export function decodeReviewBody(body: unknown, target: ReviewTarget, fieldValidation: FieldValidation): DecodedReview {
  if (Buffer.isBuffer(body)) return decodeReviewProtobuf(body, target, fieldValidation);
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
  const bytes = Buffer.from(text, 'utf8');
  let json: JsonValue;
  try {
    json = readJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw unrecognized(target, `couldn't get version/kind; json parse error: ${e.message}`, bytes);
    throw e;
  }
  return decodeParsed(json, bytes, target, fieldValidation);
}

function decodeReviewProtobuf(body: Buffer, target: ReviewTarget, fieldValidation: FieldValidation): DecodedReview {
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
  const gvk = checkGvk(fromPlainJson(typeMeta), body, target);
  let view;
  try {
    view = decodeMessage(target.schema, envelope.raw);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw cannotBeHandled(target, gvk, e.message);
    throw e;
  }
  return decodeParsed(fromPlainJson({ ...typeMeta, ...view }), body, target, fieldValidation);
}
