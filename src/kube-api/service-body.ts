// A request body (JSON/YAML text or protobuf bytes) -> a decoded, defaulted v1 Service plus
// decode warnings (unknown fields).
import { decodeService, decodeServiceProtobuf } from '../domain/codec/service-decoder';
import { applyServiceDefaults } from '../domain/service-defaults';
import type { Service } from '../domain/service.types';
import type { FieldValidation } from './write-options';

export interface DecodedBody {
  object: Service;
  warnings: string[];
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
