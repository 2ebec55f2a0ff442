// Fastify onRequest hook: every request is authenticated before routing (so unknown paths
// answer 401 too), except the endpoints kube-apiserver's system:public-info-viewer opens.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { authenticateRequest } from '../auth/authenticator';
import type { TokenIndex } from '../auth/token-index';
import type { LoggedRequest } from '../observability/logging.module';
import type { IdFactory } from '../shared/ids';
import { apiErrors } from './api-errors';
import { statusForError } from './kube-status';
import { sendStatus } from './kube-response';
import { setIdentity } from './request-identity';

const PUBLIC_PATHS = /^\/(healthz|livez|readyz)(\/.*)?$|^\/version\/?$/;

export function authenticationHook(tokens: () => TokenIndex, ids: IdFactory) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const requestId = ids.newRequestId();
    reply.header('audit-id', requestId);
    const path = request.url.split('?')[0];
    const socket = request.raw.socket as TLSSocket;
    const peerCertificate = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : null;
    const user = authenticateRequest(
      { authorizationHeader: request.headers.authorization, peerCertificate, peerAuthorized: socket.authorized === true },
      tokens(),
    );
    const raw = request.raw as unknown as LoggedRequest;
    raw.id = requestId;
    if (user) {
      raw.svctrailUser = user.name;
      setIdentity(request, { user, requestId });
      return;
    }
    if (PUBLIC_PATHS.test(path)) {
      setIdentity(request, { user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, requestId });
      return;
    }
    sendStatus(request, reply, statusForError(apiErrors.unauthorized())!);
    return reply;
  };
}
