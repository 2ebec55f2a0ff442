// A core/v1 Event request body (JSON, YAML or protobuf) -> a decoded Event plus decode warnings
// (unknown fields). Events have no defaulting.
import type { FastifyRequest } from 'fastify';
import { decodeKubeEventProtobuf, decodeKubeEventText } from '../domain/codec/kube-event-decoder';
import type { FieldValidation } from '../domain/codec/object-decoder';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { assertObjectMediaType } from './service-body';

export function decodeKubeEventRequest(request: FastifyRequest, fieldValidation: FieldValidation): { object: KubeEvent; warnings: string[] } {
  assertObjectMediaType(request);
  const body = request.body;
  if (Buffer.isBuffer(body)) return decodeKubeEventProtobuf(body, { fieldValidation });
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
  return decodeKubeEventText(text, { fieldValidation });
}
