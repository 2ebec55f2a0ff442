// The first step of the authentication hook: the user the cluster's aggregator names in its
// X-Remote-* headers, believed only from its front-proxy client certificate
// (request-header-authenticator.ts), with system:authenticated added as to every user. A request
// without such a certificate goes on to svctrail's own authenticators; one whose certificate may
// not speak for users is a 401 unless they authenticate it. The TLS layer verifies client
// certificates against svctrail's own CA only, so a front-proxy certificate is never taken for a
// user of svctrail's: its chain is checked here, against the request-header CAs.
import type { FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { withAuthenticatedGroup } from '../auth/authenticator';
import { authenticateRequestHeaders, type RequestHeaderOutcome } from '../auth/request-header-authenticator';
import type { RequestHeaderSettings } from '../auth/request-header-settings';
import { peerChainOf } from '../tls/peer-certificate-chain';

/** What the authentication hook needs: the settings in force (they may rotate) and the time. */
export interface FrontProxy {
  settings(): RequestHeaderSettings | undefined;
  now(): Date;
}

export function frontProxyOutcome(settings: RequestHeaderSettings | undefined, request: FastifyRequest, now: Date): RequestHeaderOutcome {
  if (!settings || settings.clientCas.length === 0) return undefined;
  const peer = peerChainOf(request.raw.socket as TLSSocket);
  const outcome = authenticateRequestHeaders(settings, { rawHeaders: request.raw.rawHeaders, peer }, now);
  return outcome && 'user' in outcome ? { user: withAuthenticatedGroup(outcome.user) } : outcome;
}
