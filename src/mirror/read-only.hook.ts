// Mirror mode serves what it recorded and changes nothing: every write verb on Services and on
// Events (core/v1 and events.k8s.io/v1: one store) answers 405 MethodNotAllowed, as kube-apiserver
// answers a method a resource does not register (its router's 405, after authentication and
// authorization, so it is registered after both hooks).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestAttributes } from '../authz/request-attributes';
import { apiErrors } from '../kube-api/api-errors';
import { isRecordedWrite } from '../kube-api/recorded-writes';
import { sendStatus } from '../kube-api/kube-response';
import { statusForError } from '../kube-api/kube-status';

export function readOnlyHook() {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void | FastifyReply> => {
    if (reply.sent) return;
    if (!isRecordedWrite(requestAttributes(request.method, request.originalUrl))) return;
    sendStatus(request, reply, statusForError(apiErrors.methodNotAllowed())!);
    return reply;
  };
}
