// Query options of writes (CreateOptions/UpdateOptions/DeleteOptions) and the request context
// recorded with each event.
import type { FastifyRequest } from 'fastify';
import type { WriteRequestContext } from '../commands/write-result';
import { InvalidError } from '../domain/errors/domain-errors';
import { validateWriteOptions } from '../domain/validation/options.validation';
import { identityOf } from './request-identity';
import type { FieldValidation } from '../domain/codec/service-decoder';
import { type QueryParams, queryValue, queryValues } from './query-parameters';

export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  context: WriteRequestContext;
}

/** `fieldManager`, else the User-Agent up to its first `/` (kube-apiserver's default manager). */
export function fieldManagerOf(request: FastifyRequest, query: QueryParams): string {
  const explicit = queryValue(query, 'fieldManager');
  if (explicit) return explicit;
  const agent = request.headers['user-agent'] ?? '';
  return agent.split('/')[0];
}

export function parseWriteOptions(request: FastifyRequest, kind: 'CreateOptions' | 'UpdateOptions'): WriteOptions {
  const query = request.query as QueryParams;
  const dryRun = queryValues(query, 'dryRun');
  const fieldValidation = queryValue(query, 'fieldValidation');
  const fieldManager = queryValue(query, 'fieldManager');
  const errors = validateWriteOptions({ dryRun, fieldValidation, fieldManager });
  if (errors.length) throw new InvalidError(kind, '', errors, 'meta.k8s.io');
  return {
    dryRun: (dryRun ?? []).includes('All'),
    fieldValidation: fieldValidation === 'Strict' || fieldValidation === 'Ignore' ? fieldValidation : 'Warn',
    context: requestContext(request, (dryRun ?? []).includes('All')),
  };
}

export function requestContext(request: FastifyRequest, dryRun: boolean): WriteRequestContext {
  const { user, requestId } = identityOf(request);
  return {
    user: user.name,
    groups: user.groups,
    userAgent: request.headers['user-agent'] ?? '',
    fieldManager: fieldManagerOf(request, request.query as QueryParams),
    requestId,
    dryRun,
  };
}
