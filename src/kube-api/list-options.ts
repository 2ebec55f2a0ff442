// ListOptions from the query string, decoded as Convert_url_Values_To_v1_ListOptions decodes them
// (apimachinery pkg/apis/meta/v1/zz_generated.conversion.go): field by field in its order, so of
// two bad values the one kube-apiserver reports is reported (timeoutSeconds before limit). A
// request that came in on a deprecated watch path is a watch, of the object it names if it names
// one (handlers/get.go ListResource).
import type { FastifyRequest } from 'fastify';
import type { ListServicesOptions } from '../queries/service.queries';
import { deprecatedWatchOf, fieldSelectorForName } from './deprecated-watch-path';
import { parseAsOf } from './point-in-time';
import { type QueryParams, queryBool, queryInt64, queryValue } from './query-parameters';

export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  /** `?watch=` or a deprecated watch path. */
  watch: boolean;
  allowWatchBookmarks: boolean;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  timeoutSeconds?: number;
  limit?: number;
  continue?: string;
}

/** The ListOptions a list or watch request asks for; a bad integer is the handler's 400. */
export function listQueryOf(request: FastifyRequest): ListQuery {
  const query = request.query as QueryParams;
  const watchPath = deprecatedWatchOf(request);
  const options: ListQuery = {
    labelSelector: queryValue(query, 'labelSelector'),
    fieldSelector: queryValue(query, 'fieldSelector'),
    watch: queryBool(query, 'watch') || watchPath !== undefined,
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks'),
    resourceVersion: queryValue(query, 'resourceVersion'),
    resourceVersionMatch: queryValue(query, 'resourceVersionMatch'),
    timeoutSeconds: queryInt64(query, 'timeoutSeconds'),
    limit: queryInt64(query, 'limit'),
    continue: queryValue(query, 'continue'),
  };
  options.fieldSelector = fieldSelectorForName(options.fieldSelector, watchPath?.name);
  return options;
}

export function parseListOptions(request: FastifyRequest, namespace: string | undefined): ListServicesOptions {
  const options = listQueryOf(request);
  const asOf = queryValue(request.query as QueryParams, 'asOf');
  return {
    namespace,
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
    limit: options.limit,
    continue: options.continue,
    resourceVersion: options.resourceVersion,
    resourceVersionMatch: options.resourceVersionMatch,
    asOfTime: asOf === undefined ? undefined : parseAsOf(asOf),
  };
}
