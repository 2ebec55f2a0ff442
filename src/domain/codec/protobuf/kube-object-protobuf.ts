// The kinds svctrail answers in protobuf, and their envelopes. The envelope carries the group
// version of the object (its own apiVersion, else the kind's: core/v1 and the unversioned meta
// kinds are `v1`, the reviews live in authorization.k8s.io/v1 and authentication.k8s.io/v1,
// events.k8s.io's Event in events.k8s.io/v1) and the kind's own name (`Event` for both Events).
import { eventListSchema, eventSchema } from '../event-schema';
import { eventsV1EventListSchema, eventsV1EventSchema } from '../events-v1-event-schema';
import type { StructSchema } from '../go-schema';
import { deleteOptionsSchema, statusSchema } from '../meta-schema';
import { localSubjectAccessReviewSchema, selfSubjectAccessReviewSchema, selfSubjectReviewSchema, selfSubjectRulesReviewSchema, subjectAccessReviewSchema, tokenReviewSchema } from '../review-schema';
import { serviceListSchema, serviceSchema } from '../service-schema';
import { decodeEnvelope, encodeEnvelope } from './kube-envelope';
import { decodeMessage, encodeMessage } from './proto-message-codec';

const SCHEMAS = {
  Service: serviceSchema,
  ServiceList: serviceListSchema,
  Status: statusSchema,
  Event: eventSchema,
  EventList: eventListSchema,
  EventsV1Event: eventsV1EventSchema,
  EventsV1EventList: eventsV1EventListSchema,
  DeleteOptions: deleteOptionsSchema,
  SelfSubjectAccessReview: selfSubjectAccessReviewSchema,
  SelfSubjectRulesReview: selfSubjectRulesReviewSchema,
  SelfSubjectReview: selfSubjectReviewSchema,
  SubjectAccessReview: subjectAccessReviewSchema,
  LocalSubjectAccessReview: localSubjectAccessReviewSchema,
  TokenReview: tokenReviewSchema,
} satisfies Record<string, StructSchema>;

export type ProtobufKind = keyof typeof SCHEMAS;

const GROUP_VERSIONS: Partial<Record<ProtobufKind, string>> = {
  SelfSubjectAccessReview: 'authorization.k8s.io/v1',
  SelfSubjectRulesReview: 'authorization.k8s.io/v1',
  SelfSubjectReview: 'authentication.k8s.io/v1',
  SubjectAccessReview: 'authorization.k8s.io/v1',
  LocalSubjectAccessReview: 'authorization.k8s.io/v1',
  TokenReview: 'authentication.k8s.io/v1',
  EventsV1Event: 'events.k8s.io/v1',
  EventsV1EventList: 'events.k8s.io/v1',
};

/** The envelope's kind where it is not the key (a kind of the same name in another group). */
const ENVELOPE_KINDS: Partial<Record<ProtobufKind, string>> = {
  EventsV1Event: 'Event',
  EventsV1EventList: 'EventList',
};

const envelopeKind = (kind: ProtobufKind): string => ENVELOPE_KINDS[kind] ?? kind;
const groupVersionOf = (kind: ProtobufKind): string => GROUP_VERSIONS[kind] ?? 'v1';

/** The Go struct schema of a kind svctrail speaks protobuf for. */
export function protobufSchemaOf(kind: ProtobufKind): StructSchema {
  return SCHEMAS[kind];
}

/** `k8s\0` + Unknown{groupVersion, kind} + the object's message, from the object's JSON view. */
export function encodeKubeObject(kind: ProtobufKind, object: object): Uint8Array {
  const own = (object as { apiVersion?: unknown }).apiVersion;
  const apiVersion = typeof own === 'string' && own !== '' ? own : groupVersionOf(kind);
  return encodeEnvelope(apiVersion, envelopeKind(kind), encodeMessage(SCHEMAS[kind], object));
}

/**
 * The JSON view of an enveloped object of a known kind, with `kind`/`apiVersion` from the
 * envelope (for clients and tests reading svctrail's answers; request bodies go through the
 * decoders of their resource).
 */
export function decodeKubeObject(body: Uint8Array): Record<string, unknown> {
  const envelope = decodeEnvelope(body);
  const kinds = Object.keys(SCHEMAS) as ProtobufKind[];
  // The kind of that name in the envelope's group version (Status is `v1` in every group).
  const kind = kinds.find((k) => envelopeKind(k) === envelope.kind && groupVersionOf(k) === envelope.apiVersion) ?? kinds.find((k) => k === envelope.kind);
  if (!kind) throw new Error(`no protobuf schema for kind ${JSON.stringify(envelope.kind)}`);
  return { kind: envelope.kind, apiVersion: envelope.apiVersion, ...decodeMessage(SCHEMAS[kind], envelope.raw) };
}
