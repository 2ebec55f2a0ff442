// Writes Kubernetes objects and Status bodies in the negotiated format. Key order is kept
// exactly as built (Go struct order), so no serializer may reorder it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify as toYaml } from 'yaml';
import { encodeKubeObject, type ProtobufKind } from '../domain/codec/protobuf/kube-object-protobuf';
import { negotiateFormat, PROTOBUF_MEDIA_TYPE, type ResponseFormat } from './content-negotiation';
import type { KubeStatus } from './kube-status';
import { piecesBody } from './utf8-pieces';

const CONTENT_TYPES: Record<ResponseFormat, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
  protobuf: PROTOBUF_MEDIA_TYPE,
};

/** The core/v1 resource paths whose objects (and errors) may be answered in protobuf. */
const PROTOBUF_PATH = /^\/api\/v1\/(?:watch\/)?(?:namespaces\/[^/?]+\/)?(?:services|events)(?:[/?]|$)/;
/** events.k8s.io/v1 Events, which kube-apiserver serves in protobuf as it does core/v1's. */
const PROTOBUF_EVENTS_V1_PATH = /^\/apis\/events\.k8s\.io\/v1\/(?:watch\/)?(?:namespaces\/[^/?]+\/)?events(?:[/?]|$)/;
/** The review endpoints, which kubectl 1.32+ (`auth can-i`, `whoami`) and protobuf clients call in protobuf. */
const PROTOBUF_REVIEW_PATH =
  /^\/apis\/(?:authorization\.k8s\.io\/v1\/(?:selfsubjectaccessreviews|selfsubjectrulesreviews|subjectaccessreviews|namespaces\/[^/?]+\/localsubjectaccessreviews)|authentication\.k8s\.io\/(?:v1\/tokenreviews|(?:v1|v1beta1)\/selfsubjectreviews))(?:[/?]|$)/;

export function servesProtobuf(request: FastifyRequest): boolean {
  return PROTOBUF_PATH.test(request.url) || PROTOBUF_EVENTS_V1_PATH.test(request.url) || PROTOBUF_REVIEW_PATH.test(request.url);
}

/** JSON or YAML: for documents svctrail serves in those only (discovery, history). */
export function formatFor(request: FastifyRequest, options: { protobuf?: boolean; streams?: boolean } = {}): ResponseFormat {
  return negotiateFormat(request.headers.accept, options);
}

/** A body, or a lazily built one with its JSON text already at hand (a stored object). */
export interface EncodedBody {
  readonly json: string;
  readonly object: unknown;
  /** The JSON as pieces to write one after another (a list): joined only when small (utf8-pieces.ts). */
  readonly jsonPieces?: readonly string[];
}

function serialize(format: ResponseFormat, body: unknown, kind: ProtobufKind | undefined): string | Buffer {
  if (body instanceof EncodedJson) {
    if (format !== 'json') return serialize(format, body.encoded.object, kind);
    const pieces = body.encoded.jsonPieces;
    return pieces ? piecesBody(pieces) : body.encoded.json;
  }
  if (format === 'protobuf') return Buffer.from(encodeKubeObject(kind!, body as object));
  return format === 'yaml' ? toYaml(body) : JSON.stringify(body);
}

/**
 * A body whose JSON is its pieces one after another (a list's head and its items' stored text);
 * the object is built only when another format is negotiated.
 *
 * A class, not an object literal with getters: V8 allocates a literal's accessor pair in old
 * space, and an old object that points at a young one keeps it alive through every scavenge
 * until the next full collection. Built per request, such a literal promoted every list's rows
 * (110 KB per namespace LIST) into old space, which grew to 160 MB between collections.
 */
export class JsonPieces implements EncodedBody {
  constructor(
    readonly jsonPieces: readonly string[],
    private readonly toObject: () => unknown,
  ) {}

  get json(): string {
    return this.jsonPieces.join('');
  }

  get object(): unknown {
    return this.toObject();
  }
}

/** Marks a body whose JSON is sent as given (no parse, no stringify) when JSON is negotiated. */
export class EncodedJson {
  constructor(readonly encoded: EncodedBody) {}
}

export function sendObject(request: FastifyRequest, reply: FastifyReply, code: number, body: unknown, warnings: readonly string[] = []): void {
  const format = formatFor(request);
  for (const w of warnings) addWarning(reply, w);
  reply
    .code(code)
    .header('content-type', CONTENT_TYPES[format])
    .send(serialize(format, body, undefined));
}

/** An object of a kind svctrail also speaks protobuf for, in whatever the client asked first. */
export function sendKubeObject(request: FastifyRequest, reply: FastifyReply, code: number, kind: ProtobufKind, body: unknown, warnings: readonly string[] = []): void {
  const format = formatFor(request, { protobuf: true, streams: kind.endsWith('List') });
  for (const w of warnings) addWarning(reply, w);
  reply
    .code(code)
    .header('content-type', CONTENT_TYPES[format])
    .send(serialize(format, body, kind));
}

/** Errors fall back to JSON when the Accept header itself is what failed (as kube-apiserver does). */
export function sendStatus(request: FastifyRequest, reply: FastifyReply, status: KubeStatus): void {
  let format: ResponseFormat;
  try {
    format = formatFor(request, { protobuf: servesProtobuf(request) });
  } catch {
    format = 'json';
  }
  reply
    .code(status.code ?? 500)
    .header('content-type', CONTENT_TYPES[format])
    .send(serialize(format, status, 'Status'));
}

/** RFC 7234 warning header as kube-apiserver writes it: `299 - "<text>"`. */
export function addWarning(reply: FastifyReply, text: string): void {
  const value = `299 - ${JSON.stringify(text)}`;
  const existing = reply.getHeader('warning');
  if (existing === undefined) reply.header('warning', value);
  else reply.header('warning', [...(Array.isArray(existing) ? existing : [String(existing)]), value]);
}
