// The kinds svctrail answers in protobuf, and their envelopes. The envelope carries the group
// version of the object (its own apiVersion, else the kind's: core/v1 and the unversioned meta
// kinds are `v1`, the self reviews live in authorization.k8s.io/v1 and authentication.k8s.io/v1).
import { eventListSchema, eventSchema } from '../event-schema';
import type { StructSchema } from '../go-schema';
import { deleteOptionsSchema, statusSchema } from '../meta-schema';
import { selfSubjectAccessReviewSchema, selfSubjectReviewSchema, selfSubjectRulesReviewSchema } from '../review-schema';
import { serviceListSchema, serviceSchema } from '../service-schema';
import { decodeEnvelope, encodeEnvelope } from './kube-envelope';
import { decodeMessage, encodeMessage } from './proto-message-codec';

const SCHEMAS = {
  Service: serviceSchema,
  ServiceList: serviceListSchema,
  Status: statusSchema,
  Event: eventSchema,
  EventList: eventListSchema,
  DeleteOptions: deleteOptionsSchema,
  SelfSubjectAccessReview: selfSubjectAccessReviewSchema,
  SelfSubjectRulesReview: selfSubjectRulesReviewSchema,
  SelfSubjectReview: selfSubjectReviewSchema,
} satisfies Record<string, StructSchema>;

export type ProtobufKind = keyof typeof SCHEMAS;

const GROUP_VERSIONS: Partial<Record<ProtobufKind, string>> = {
  SelfSubjectAccessReview: 'authorization.k8s.io/v1',
  SelfSubjectRulesReview: 'authorization.k8s.io/v1',
  SelfSubjectReview: 'authentication.k8s.io/v1',
};

/** The Go struct schema of a kind svctrail speaks protobuf for. */
export function protobufSchemaOf(kind: ProtobufKind): StructSchema {
  return SCHEMAS[kind];
}

/** `k8s\0` + Unknown{groupVersion, kind} + the object's message, from the object's JSON view. */
export function encodeKubeObject(kind: ProtobufKind, object: object): Uint8Array {
  const own = (object as { apiVersion?: unknown }).apiVersion;
  const apiVersion = typeof own === 'string' && own !== '' ? own : (GROUP_VERSIONS[kind] ?? 'v1');
  return encodeEnvelope(apiVersion, kind, encodeMessage(SCHEMAS[kind], object));
}

/**
 * The JSON view of an enveloped object of a known kind, with `kind`/`apiVersion` from the
 * envelope (for clients and tests reading svctrail's answers; request bodies go through the
 * decoders of their resource).
 */
export function decodeKubeObject(body: Uint8Array): Record<string, unknown> {
  const envelope = decodeEnvelope(body);
  const schema = SCHEMAS[envelope.kind as ProtobufKind];
  if (!schema) throw new Error(`no protobuf schema for kind ${JSON.stringify(envelope.kind)}`);
  return { kind: envelope.kind, apiVersion: envelope.apiVersion, ...decodeMessage(schema, envelope.raw) };
}
