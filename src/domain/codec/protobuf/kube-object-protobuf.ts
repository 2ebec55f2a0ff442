// The kinds svctrail answers in protobuf, and their envelopes. Everything served in protobuf is
// core/v1 or an unversioned meta kind, so the envelope's apiVersion is always `v1`.
import { eventListSchema, eventSchema } from '../event-schema';
import type { StructSchema } from '../go-schema';
import { deleteOptionsSchema, statusSchema } from '../meta-schema';
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
} satisfies Record<string, StructSchema>;

export type ProtobufKind = keyof typeof SCHEMAS;

/** `k8s\0` + Unknown{v1, kind} + the object's message, from the object's JSON view. */
export function encodeKubeObject(kind: ProtobufKind, object: object): Uint8Array {
  return encodeEnvelope('v1', kind, encodeMessage(SCHEMAS[kind], object));
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
