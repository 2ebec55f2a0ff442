// Fastify onRequest hook, registered after authentication and impersonation: decides every
// request before routing (so unknown paths and unrouted methods are 403 for users without
// access, as in kube-apiserver, where WithAuthorization runs before the mux) and answers 403
// Forbidden, or 500 when the decision could not be made (a cluster's SubjectAccessReview failed:
// never an allow).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { statusForError } from '../kube-api/kube-status';
import { sendStatus } from '../kube-api/kube-response';
import { identityOf, isUiRequest } from '../kube-api/request-identity';
import type { Authorizer } from './authorizer';
import { forbiddenError } from './forbidden';
import { internalErrorText } from './internal-error-text';
import { requestAttributes } from './request-attributes';

export function authorizationHook(authorizer: Authorizer) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void | FastifyReply> => {
    // Authentication already answered (401); Fastify skips later hooks then, but be explicit.
    if (reply.sent || isUiRequest(request)) return;
    const { user } = identityOf(request);
    // The URL as sent: a deprecated watch path, routed as its list path, is still verb watch.
    const attributes = requestAttributes(request.method, request.originalUrl);
    const decision = await authorizer.authorize(user, attributes);
    if (decision.allowed) return;
    reply.header('x-content-type-options', 'nosniff');
    if (decision.error !== undefined) {
      reply.code(500).header('content-type', 'text/plain; charset=utf-8').send(internalErrorText(request.originalUrl, decision.error));
      return reply;
    }
    sendStatus(request, reply, statusForError(forbiddenError(user, attributes, decision.forbiddenReason))!);
    return reply;
  };
}
