// PATCH on services/{name} and services/{name}/status (handlers/patch.go): the body is applied to
// the current object as served, the result decoded and defaulted like any body, and the outcome
// is an ordinary update with the same resourceVersion, validation and no-op rules.
import type { FastifyRequest } from 'fastify';
import type { PatchRequest } from '../commands/service.commands';
import { InvalidError } from '../domain/errors/domain-errors';
import { validatePatchOptions } from '../domain/validation/options.validation';
import { patchTypeOf } from '../patch/patch-type';
import { apiErrors } from './api-errors';
import { type QueryParams, queryOptionalBool, queryValue, queryValues } from './query-parameters';
import { requestContext } from './write-options';

export function parsePatchRequest(request: FastifyRequest): { patch: PatchRequest; context: ReturnType<typeof requestContext> } {
  const type = patchTypeOf(request.headers['content-type']);
  if (!type) throw apiErrors.unsupportedMediaType();
  const query = request.query as QueryParams;
  const dryRun = queryValues(query, 'dryRun');
  const fieldValidation = queryValue(query, 'fieldValidation');
  const force = queryOptionalBool(query, 'force');
  const errors = validatePatchOptions({ dryRun, fieldValidation, fieldManager: queryValue(query, 'fieldManager'), force }, type === 'apply');
  if (errors.length) throw new InvalidError('PatchOptions', '', errors, 'meta.k8s.io');
  const body = typeof request.body === 'string' ? request.body : '';
  const validation = fieldValidation === 'Strict' || fieldValidation === 'Ignore' ? fieldValidation : 'Warn';
  return {
    patch: type === 'apply' ? { type, body, fieldValidation: validation, force: force ?? false } : { type, body, fieldValidation: validation },
    context: requestContext(request, (dryRun ?? []).includes('All')),
  };
}
