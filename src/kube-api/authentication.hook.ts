// Fastify onRequest hook: every request is authenticated before routing (so unknown paths
// answer 401 too), except the endpoints kube-apiserver's system:public-info-viewer opens and the
// browser UI's own routes under /ui/ (which check their session themselves). A request with no
// token or certificate may be authenticated by a browser session cookie, for reads only. The
// cluster's aggregator is believed first (front-proxy-authentication.ts), as k8s.io/apiserver's
// request-header authenticator leads its chain.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { requestAttributes } from '../authz/request-attributes';
import { browserSessionMayRequest } from '../browser/browser-request-policy';
import type { BrowserSessions } from '../browser/browser-sessions';
import { sessionIdFrom } from '../browser/session-cookie';
import { NO_STORE } from '../browser/ui-headers';
import { isUiPath } from '../browser/ui-routes';
import type { LoggedRequest } from '../observability/logging.module';
import type { IdFactory } from '../shared/ids';
import { apiErrors } from './api-errors';
import { failureStatus, statusForError } from './kube-status';
import { sendStatus } from './kube-response';
import { type AccessControl, setAccessControl } from './request-access-control';
import { type FrontProxy, frontProxyOutcome } from './front-proxy-authentication';
import { markUiRequest, setIdentity } from './request-identity';
import { forwardedIdentity, NOT_LEADER_HEADER } from './forwarded-write';
import type { WriteLeadership } from '../store/ports/write-leadership';

const PUBLIC_PATHS = /^\/(healthz|livez|readyz)(\/.*)?$|^\/version\/?$/;

export function authenticationHook(access: AccessControl, ids: IdFactory, sessions?: BrowserSessions, frontProxy?: FrontProxy, leadership?: () => WriteLeadership | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // A write another replica forwarded to this one, the write leader: it was authenticated there.
    const forwarded = leadership && forwardedIdentity(request.headers, leadership()?.heldToken());
    if (forwarded === 'misdirected') {
      reply.header(NOT_LEADER_HEADER, '1');
      sendStatus(request, reply, failureStatus(421, 'this replica does not lead the writes (any more); the write was not run', 'MisdirectedRequest'));
      return reply;
    }
    setAccessControl(request, access);
    if (forwarded) {
      reply.header('audit-id', forwarded.requestId);
      const raw = request.raw as unknown as LoggedRequest;
      raw.id = forwarded.requestId;
      raw.svctrailUser = forwarded.user.name;
      setIdentity(request, forwarded);
      return;
    }
    const requestId = ids.newRequestId();
    reply.header('audit-id', requestId);
    const path = request.url.split('?')[0];
    const socket = request.raw.socket as TLSSocket;
    const peerCertificate = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : null;
    const proxied = frontProxy && frontProxyOutcome(frontProxy.settings(), request, frontProxy.now());
    const user =
      (proxied && 'user' in proxied ? proxied.user : null) ??
      (await access.authenticator.authenticate({ authorizationHeader: request.headers.authorization, peerCertificate, peerAuthorized: socket.authorized === true }));
    const raw = request.raw as unknown as LoggedRequest;
    raw.id = requestId;
    if (isUiPath(path)) {
      setIdentity(request, { user: user ?? { name: 'system:anonymous', groups: ['system:unauthenticated'] }, requestId });
      markUiRequest(request);
      return;
    }
    if (!user && sessions && !request.headers.authorization) {
      const id = sessionIdFrom(request.headers.cookie);
      const sessionUser = id ? sessions.touch(id) : null;
      if (sessionUser) {
        raw.svctrailUser = sessionUser.name;
        setIdentity(request, { user: sessionUser, requestId });
        // On the raw response, so it holds whatever handler answers (the watch and the feed,
        // which write their own headers, keep their `no-cache`; a stream is never cached anyway).
        reply.raw.setHeader('cache-control', NO_STORE);
        if (browserSessionMayRequest(request.method, requestAttributes(request.method, request.originalUrl))) return;
        sendStatus(request, reply, failureStatus(403, 'a browser session may only read Services, Events and history; use a token or client certificate to change anything', 'Forbidden'));
        return reply;
      }
    }
    if (user) {
      raw.svctrailUser = user.name;
      setIdentity(request, { user, requestId });
      return;
    }
    // A certificate that may not speak for users, and nothing else that authenticates: 401, on
    // every path (unionauth.NewFailOnError: an error is never anonymous).
    if (proxied && 'problem' in proxied) {
      sendStatus(request, reply, statusForError(apiErrors.unauthorized())!);
      return reply;
    }
    if (PUBLIC_PATHS.test(path)) {
      setIdentity(request, { user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, requestId });
      return;
    }
    sendStatus(request, reply, statusForError(apiErrors.unauthorized())!);
    return reply;
  };
}
