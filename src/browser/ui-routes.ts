// /ui/: the app shell and its assets (public: they hold no data) and the session endpoints.
// Registered straight on Fastify, before Nest's routes; the authentication and authorization
// hooks leave /ui/ to these handlers (see isUiPath).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import { failureStatus } from '../kube-api/kube-status';
import { sendStatus } from '../kube-api/kube-response';
import type { BrowserSessions } from './browser-sessions';
import { unsafeBrowserRequestRefusal } from './same-origin-guard';
import { clearedSessionCookie, sessionCookie, sessionIdFrom } from './session-cookie';
import type { UiAsset } from './ui-assets';
import { NO_STORE, UI_SECURITY_HEADERS } from './ui-headers';

export const UI_PREFIX = '/ui';

/** Paths the UI routes own: the kube hooks neither authenticate nor authorize them. */
export function isUiPath(path: string): boolean {
  return path === UI_PREFIX || path.startsWith(`${UI_PREFIX}/`);
}

export interface UiRouteDeps {
  assets: Map<string, UiAsset>;
  sessions: BrowserSessions;
  /** The API's own authenticator: a token the cluster's TokenReview knows signs in too. */
  authenticator: RequestAuthenticator;
}

export function registerUiRoutes(fastify: FastifyInstance, deps: UiRouteDeps): void {
  const { assets, sessions, authenticator } = deps;
  const secure = (reply: FastifyReply) => {
    for (const [name, value] of Object.entries(UI_SECURITY_HEADERS)) reply.header(name, value);
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply, code: number, reason: string, message: string) => {
    secure(reply);
    reply.header('cache-control', NO_STORE);
    sendStatus(request, reply, failureStatus(code, message, reason));
    return reply;
  };
  // Runs before the body is parsed, so a wrong media type is a 403 here and never a 415.
  const unsafeGuard = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = (name: string) => {
      const v = request.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const why = unsafeBrowserRequestRefusal({
      contentType: header('content-type'),
      secFetchSite: header('sec-fetch-site'),
      origin: header('origin'),
      host: header('host'),
    });
    if (why) return refuse(request, reply, 403, 'Forbidden', why);
  };

  fastify.get(UI_PREFIX, async (request, reply) => {
    secure(reply);
    // Relative, so it also works behind a path prefix; a deep link's query is kept.
    const queryAt = request.url.indexOf('?');
    return reply
      .code(301)
      .header('location', `ui/${queryAt < 0 ? '' : request.url.slice(queryAt)}`)
      .send();
  });

  fastify.get(`${UI_PREFIX}/*`, async (request, reply) => {
    const path = request.url.split('?')[0].slice(UI_PREFIX.length + 1);
    const name = path === '' ? 'index.html' : path;
    secure(reply);
    if (assets.size === 0) return refuse(request, reply, 503, 'ServiceUnavailable', 'the UI is not built: run `npm run build` (or `npm start`, which builds it)');
    const asset = assets.get(name);
    if (!asset) return refuse(request, reply, 404, 'NotFound', 'the server could not find the requested resource');
    reply.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    return reply.code(200).header('content-type', asset.contentType).send(asset.body);
  });

  fastify.get(`${UI_PREFIX}/api/session`, async (request, reply) => {
    const id = sessionIdFrom(request.headers.cookie);
    const user = id ? sessions.touch(id) : null;
    if (!user) return refuse(request, reply, 401, 'Unauthorized', 'Unauthorized');
    secure(reply);
    return reply
      .code(200)
      .header('cache-control', NO_STORE)
      .header('content-type', 'application/json')
      .send(JSON.stringify(sessionBody(user, sessions)));
  });

  fastify.post(`${UI_PREFIX}/api/session`, { onRequest: unsafeGuard }, async (request, reply) => {
    let body: unknown;
    try {
      body = JSON.parse(String(request.body ?? ''));
    } catch {
      return refuse(request, reply, 400, 'BadRequest', 'the body must be a JSON object: {"token": "…"}, or {} to sign in with the client certificate');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse(request, reply, 400, 'BadRequest', 'the body must be a JSON object');
    const token = (body as { token?: unknown }).token;
    if (token !== undefined && typeof token !== 'string') return refuse(request, reply, 400, 'BadRequest', 'token must be a string');
    const socket = request.raw.socket as TLSSocket;
    // A token is checked alone; without one, the certificate the browser presented on this connection.
    const user =
      token !== undefined
        ? await authenticator.authenticate({ authorizationHeader: `Bearer ${token}`, peerCertificate: null, peerAuthorized: false })
        : await authenticator.authenticate({ peerCertificate: typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : null, peerAuthorized: socket.authorized === true });
    if (!user) return refuse(request, reply, 401, 'Unauthorized', token !== undefined ? 'Unauthorized' : 'Unauthorized: no trusted client certificate was presented');
    // A new sign-in replaces the browser's previous session rather than leaving it alive.
    const previous = sessionIdFrom(request.headers.cookie);
    if (previous) sessions.delete(previous);
    const id = sessions.create(user);
    secure(reply);
    return reply
      .code(201)
      .header('set-cookie', sessionCookie(id, sessions.maxAgeSeconds()))
      .header('cache-control', NO_STORE)
      .header('content-type', 'application/json')
      .send(JSON.stringify(sessionBody(user, sessions)));
  });

  fastify.delete(`${UI_PREFIX}/api/session`, { onRequest: unsafeGuard }, async (request, reply) => {
    const id = sessionIdFrom(request.headers.cookie);
    if (id) sessions.delete(id);
    secure(reply);
    return reply.code(204).header('set-cookie', clearedSessionCookie()).header('cache-control', NO_STORE).send();
  });
}

function sessionBody(user: { name: string; groups: string[] }, sessions: BrowserSessions) {
  return {
    user: { name: user.name, groups: user.groups },
    idleTimeoutSeconds: Math.floor(sessions.limits.idleMs / 1000),
    maxAgeSeconds: sessions.maxAgeSeconds(),
  };
}
