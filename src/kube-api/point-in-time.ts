// Time travel on the Kubernetes paths. LIST uses the Kubernetes way
// (`resourceVersion=R&resourceVersionMatch=Exact`); a single GET, which has no
// resourceVersionMatch upstream, takes the same pair as svctrail's documented equivalent; both
// also take `asOf=<RFC 3339 time>`.
import type { FastifyRequest } from 'fastify';
import { BadRequestError } from '../domain/errors/domain-errors';
import type { PointInTime } from '../queries/service.queries';
import { type QueryParams, queryValue } from './query-parameters';

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** The normalised UTC time (ISO 8601 with milliseconds, as the log records it) of an `asOf`. */
export function parseAsOf(value: string): string {
  const ms = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new BadRequestError(`invalid asOf ${JSON.stringify(value)}: must be an RFC 3339 time such as 2026-01-02T03:04:05Z`);
  return new Date(ms).toISOString();
}

export function pointInTimeForGet(request: FastifyRequest): PointInTime | undefined {
  const query = request.query as QueryParams;
  const asOf = queryValue(query, 'asOf');
  const rv = queryValue(query, 'resourceVersion');
  const match = queryValue(query, 'resourceVersionMatch');
  if (asOf !== undefined) {
    if (rv || match) throw new BadRequestError('asOf cannot be combined with resourceVersion or resourceVersionMatch');
    return { time: parseAsOf(asOf) };
  }
  if (match === undefined) return undefined;
  if (match !== 'Exact') throw new BadRequestError(`resourceVersionMatch ${JSON.stringify(match)} is not supported on get; use Exact`);
  if (!rv || !/^\d+$/.test(rv) || rv === '0') throw new BadRequestError('resourceVersionMatch=Exact needs a positive resourceVersion');
  return { resourceVersion: Number(rv) };
}
