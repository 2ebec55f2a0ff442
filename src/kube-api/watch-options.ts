// Query parameters of a watch (`?watch=true`, or a deprecated watch path): starting
// resourceVersion, bookmarks, timeout, selectors. Errors mirror kube-apiserver's ListOptions
// decoding (400) and validation (422).
import type { FastifyRequest } from 'fastify';
import { InvalidError } from '../domain/errors/domain-errors';
import { type FieldError, fieldErrors } from '../domain/errors/field-error';
import { parseFieldSelector, SERVICE_SELECTABLE_FIELDS } from '../domain/selectors/field-selector';
import { parseLabelSelector } from '../domain/selectors/label-selector';
import type { ServiceWatchRequest } from '../watch/service-watch.service';
import type { Service } from '../domain/service.types';
import type { WatchObjectEncoder } from '../watch/watch-session';
import { deprecatedWatchOf } from './deprecated-watch-path';
import { listQueryOf } from './list-options';
import { type QueryParams, queryBool } from './query-parameters';

/** Whether a GET on a list path is a watch; cheap, so that a handler can choose before it decodes. */
export function isWatchRequest(request: FastifyRequest): boolean {
  return queryBool(request.query as QueryParams, 'watch') || deprecatedWatchOf(request) !== undefined;
}

/** The watch parameters common to every resource (selectors are parsed by the resource). */
export function parseWatchParams(request: FastifyRequest): { resourceVersion?: number; bookmarks: boolean; timeoutSeconds?: number } {
  const options = listQueryOf(request);
  const errors: FieldError[] = [];
  const rvText = options.resourceVersion ?? '';
  if (rvText !== '' && !/^\d+$/.test(rvText)) errors.push(fieldErrors.invalid('resourceVersion', rvText, 'must be a non-negative integer'));
  if (options.resourceVersionMatch) {
    errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch'));
  }
  if (errors.length) throw new InvalidError('ListOptions', '', errors, 'meta.k8s.io');
  return {
    resourceVersion: rvText === '' ? undefined : Number(rvText),
    bookmarks: options.allowWatchBookmarks,
    timeoutSeconds: options.timeoutSeconds,
  };
}

export function parseServiceWatch(request: FastifyRequest, namespace: string | undefined, encode: WatchObjectEncoder<Service>): ServiceWatchRequest {
  const params = parseWatchParams(request);
  const { labelSelector, fieldSelector } = listQueryOf(request);
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
