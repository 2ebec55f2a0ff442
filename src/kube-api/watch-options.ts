// Query parameters of a watch (`?watch=true`): starting resourceVersion, bookmarks, timeout,
// selectors. Errors mirror kube-apiserver's ListOptions validation.
import type { FastifyRequest } from 'fastify';
import { BadRequestError, InvalidError } from '../domain/errors/domain-errors';
import { type FieldError, fieldErrors } from '../domain/errors/field-error';
import { parseFieldSelector, SERVICE_SELECTABLE_FIELDS } from '../domain/selectors/field-selector';
import { parseLabelSelector } from '../domain/selectors/label-selector';
import type { ServiceWatchRequest } from '../watch/service-watch.service';
import type { Service } from '../domain/service.types';
import type { WatchObjectEncoder } from '../watch/watch-session';
import { type QueryParams, queryValue } from './write-options';

const TRUE_VALUES = ['true', '1'];

export function isWatchRequest(request: FastifyRequest): boolean {
  return TRUE_VALUES.includes(queryValue(request.query as QueryParams, 'watch') ?? '');
}

/** The watch parameters common to every resource (selectors are parsed by the resource). */
export function parseWatchParams(request: FastifyRequest): { resourceVersion?: number; bookmarks: boolean; timeoutSeconds?: number } {
  const query = request.query as QueryParams;
  const errors: FieldError[] = [];
  const rvText = queryValue(query, 'resourceVersion') ?? '';
  if (rvText !== '' && !/^\d+$/.test(rvText)) errors.push(fieldErrors.invalid('resourceVersion', rvText, 'must be a non-negative integer'));
  if (queryValue(query, 'resourceVersionMatch')) {
    errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch'));
  }
  const timeoutText = queryValue(query, 'timeoutSeconds');
  if (timeoutText !== undefined && !/^\d+$/.test(timeoutText)) {
    throw new BadRequestError(`strconv.ParseInt: parsing ${JSON.stringify(timeoutText)}: invalid syntax`);
  }
  if (errors.length) throw new InvalidError('ListOptions', '', errors, 'meta.k8s.io');
  return {
    resourceVersion: rvText === '' ? undefined : Number(rvText),
    bookmarks: TRUE_VALUES.includes(queryValue(query, 'allowWatchBookmarks') ?? ''),
    timeoutSeconds: timeoutText === undefined ? undefined : Number(timeoutText),
  };
}

export function parseServiceWatch(request: FastifyRequest, namespace: string | undefined, encode: WatchObjectEncoder<Service>): ServiceWatchRequest {
  const params = parseWatchParams(request);
  const query = request.query as QueryParams;
  const labelSelector = queryValue(query, 'labelSelector');
  const fieldSelector = queryValue(query, 'fieldSelector');
  return {
    ...params,
    filter: {
      namespace,
      labels: labelSelector ? parseLabelSelector(labelSelector) : undefined,
      fields: fieldSelector ? parseFieldSelector(fieldSelector, SERVICE_SELECTABLE_FIELDS) : undefined,
    },
    encode,
  };
}
