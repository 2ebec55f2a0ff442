// Errors that belong to the HTTP surface rather than the domain: routing, media types,
// credentials. Each already knows its Status code, reason and details.
import type { ErrorDetails } from '../domain/errors/domain-errors';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
  }
}

export const apiErrors = {
  unauthorized: () => new ApiError(401, 'Unauthorized', 'Unauthorized'),
  notFoundRoute: () => new ApiError(404, 'NotFound', 'the server could not find the requested resource', {}),
  methodNotAllowed: () => new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
  notAcceptable: (available: string) => new ApiError(406, 'NotAcceptable', `406: Not Acceptable\n\nAvailable representations: ${available}`, {}),
  unsupportedMediaType: () => new ApiError(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {}),
  /** The handler-level 415 (negotiation.NewUnsupportedMediaTypeError): the body's serializers listed. */
  unknownBodyFormat: (accepted: readonly string[]) =>
    new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`),
  entityTooLarge: (limit: number) => new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`),
  /** The storage could not be reached (apierrors.NewServerTimeout, as for an unreachable etcd): a 500 clients retry. */
  serverTimeout: (resource: string, operation: string) =>
    new ApiError(500, 'ServerTimeout', `The ${operation} operation against ${resource} could not be completed at this time, please try again.`, {
      name: operation,
      kind: resource,
      retryAfterSeconds: 2,
    }),
};
