// Fastify onRequest hook, registered after authenticationHook: decides every request before
// routing (so unknown paths and unrouted methods are 403 for users without access, as in
// kube-apiserver, where WithAuthorization runs before the mux) and answers 403 Forbidden.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { statusForError } from '../kube-api/kube-status';
import { sendStatus } from '../kube-api/kube-response';
import { identityOf, isUiRequest } from '../kube-api/request-identity';
import type { AbacPolicy } from './abac-policy';
import { forbiddenError } from './forbidden';
import { requestAttributes } from './request-attributes';
import { authorize } from './request-authorizer';
import { setRequestPolicy } from './request-policy';

export function authorizationHook(policy: () => AbacPolicy) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void | FastifyReply> => {
    // Authentication already answered (401); Fastify skips later hooks then, but be explicit.
    if (reply.sent || isUiRequest(request)) return;
    const { user } = identityOf(request);
    // The URL as sent: a deprecated watch path, routed as its list path, is still verb watch.
    const attributes = requestAttributes(request.method, request.originalUrl);
    const current = policy();
    if (authorize(current, user, attributes).allowed) {
      setRequestPolicy(request, current);
      return;
    }
    reply.header('x-content-type-options', 'nosniff');
    sendStatus(request, reply, statusForError(forbiddenError(user, attributes))!);
    return reply;
  };
}
