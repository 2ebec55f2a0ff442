// The authenticator and authorizer a request was admitted with, kept on the request so that the
// review endpoints (TokenReview, the access reviews) answer with exactly the ones that let it in.
import type { FastifyRequest } from 'fastify';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import type { Authorizer } from '../authz/authorizer';

export interface AccessControl {
  authenticator: RequestAuthenticator;
  authorizer: Authorizer;
}

const ACCESS_CONTROL = Symbol('svctrail.accessControl');

export function setAccessControl(request: FastifyRequest, access: AccessControl): void {
  (request as unknown as Record<symbol, AccessControl>)[ACCESS_CONTROL] = access;
}

export function accessControlOf(request: FastifyRequest): AccessControl {
  const access = (request as unknown as Record<symbol, AccessControl | undefined>)[ACCESS_CONTROL];
  if (!access) throw new Error('request reached a controller without authentication');
  return access;
}
