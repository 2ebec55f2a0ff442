// A request body (JSON/YAML text or protobuf bytes) -> a decoded, defaulted v1 Service plus
// decode warnings (unknown fields).
import type { FastifyRequest } from 'fastify';
import { decodeService, decodeServiceProtobuf } from '../domain/codec/service-decoder';
import { applyServiceDefaults } from '../domain/service-defaults';
import type { Service } from '../domain/service.types';
import { apiErrors } from './api-errors';
import { OBJECT_BODY_MEDIA_TYPES } from './content-type-parsers';
import type { FieldValidation } from '../domain/codec/service-decoder';

export interface DecodedBody {
  object: Service;
  warnings: string[];
}

/**
 * kube-apiserver routes every Content-Type to create and update (`Consumes("*\/*")`) and lets the
 * handler's serializer negotiation refuse what it cannot decode, patch types included.
 */
export function assertObjectMediaType(request: FastifyRequest): void {
  const header = request.headers['content-type'];
  if (header === undefined) return;
  const mediaType = header.split(';')[0].trim().toLowerCase();
  if (!OBJECT_BODY_MEDIA_TYPES.includes(mediaType)) throw apiErrors.unknownBodyFormat(OBJECT_BODY_MEDIA_TYPES);
}

/** A create or update request's body, once its media type is one svctrail decodes. */
export function decodeServiceRequest(request: FastifyRequest, fieldValidation: FieldValidation): DecodedBody {
  assertObjectMediaType(request);
  return decodeServiceBody(request.body, fieldValidation);
}

export function decodeServiceBody(body: unknown, fieldValidation: FieldValidation): DecodedBody {
  if (Buffer.isBuffer(body)) {
    const { object, warnings } = decodeServiceProtobuf(body, { fieldValidation });
    return { object: applyServiceDefaults(object), warnings };
  }
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
  const { object, warnings } = decodeService(text, { fieldValidation });
  return { object: applyServiceDefaults(object), warnings };
}
