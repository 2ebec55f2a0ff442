// PATCH on services/{name} and services/{name}/status (handlers/patch.go): the body is applied to
// the current object as served, the result decoded and defaulted like any body, and the outcome
// is an ordinary update with the same resourceVersion, validation and no-op rules.
import type { FastifyRequest } from 'fastify';
import type { PatchRequest } from '../commands/service.commands';
import { InvalidError } from '../domain/errors/domain-errors';
import { validatePatchOptions } from '../domain/validation/options.validation';
import { patchTypeOf } from '../patch/patch-type';
import { ApiError, apiErrors } from './api-errors';
import { QueryParams, queryValue, queryValues, requestContext } from './write-options';

/** svctrail accepts these; server-side apply is not implemented (README). */
const APPLY_NOT_SUPPORTED = new ApiError(
  415,
  'UnsupportedMediaType',
  'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
);

export function parsePatchRequest(request: FastifyRequest): { patch: PatchRequest; context: ReturnType<typeof requestContext> } {
  const type = patchTypeOf(request.headers['content-type']);
  if (!type) throw apiErrors.unsupportedMediaType();
  if (type === 'apply') throw APPLY_NOT_SUPPORTED;
  const query = request.query as QueryParams;
  const dryRun = queryValues(query, 'dryRun');
  const fieldValidation = queryValue(query, 'fieldValidation');
  const force = queryValue(query, 'force');
  const errors = validatePatchOptions(
    { dryRun, fieldValidation, fieldManager: queryValue(query, 'fieldManager'), force: force === undefined ? undefined : force === 'true' },
    false,
  );
  if (errors.length) throw new InvalidError('PatchOptions', '', errors, 'meta.k8s.io');
  return {
    patch: {
      type,
      body: typeof request.body === 'string' ? request.body : '',
      fieldValidation: fieldValidation === 'Strict' || fieldValidation === 'Ignore' ? fieldValidation : 'Warn',
    },
    context: requestContext(request, (dryRun ?? []).includes('All')),
  };
}

