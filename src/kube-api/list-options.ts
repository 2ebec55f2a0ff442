// ListOptions from the query string.
import type { FastifyRequest } from 'fastify';
import { BadRequestError } from '../domain/errors/domain-errors';
import type { ListServicesOptions } from '../queries/service.queries';
import { parseAsOf } from './point-in-time';
import { type QueryParams, queryValue } from './write-options';

export function parseListOptions(request: FastifyRequest, namespace: string | undefined): ListServicesOptions {
  const query = request.query as QueryParams;
  const limitText = queryValue(query, 'limit');
  let limit: number | undefined;
  if (limitText !== undefined && limitText !== '') {
    if (!/^-?\d+$/.test(limitText)) throw new BadRequestError(`strconv.ParseInt: parsing ${JSON.stringify(limitText)}: invalid syntax`);
    limit = Number(limitText);
  }
  const asOf = queryValue(query, 'asOf');
  return {
    namespace,
    labelSelector: queryValue(query, 'labelSelector'),
    fieldSelector: queryValue(query, 'fieldSelector'),
    limit,
    continue: queryValue(query, 'continue'),
    resourceVersion: queryValue(query, 'resourceVersion'),
    resourceVersionMatch: queryValue(query, 'resourceVersionMatch'),
    asOfTime: asOf === undefined ? undefined : parseAsOf(asOf),
  };
}
