// The authenticated user and request id attached to each request by the authentication hook.
import type { FastifyRequest } from 'fastify';
import type { UserInfo } from '../auth/user-info';

export interface RequestIdentity {
  user: UserInfo;
  requestId: string;
}

const IDENTITY = Symbol('svctrail.identity');

export function setIdentity(request: FastifyRequest, identity: RequestIdentity): void {
  (request as unknown as Record<symbol, RequestIdentity>)[IDENTITY] = identity;
}

export function identityOf(request: FastifyRequest): RequestIdentity {
  const identity = (request as unknown as Record<symbol, RequestIdentity | undefined>)[IDENTITY];
  if (!identity) throw new Error('request reached a controller without authentication');
  return identity;
}

const UI_REQUEST = Symbol('svctrail.ui');

/** The request is for /ui/, whose routes check their own session: the policy file is not asked. */
export function markUiRequest(request: FastifyRequest): void {
  (request as unknown as Record<symbol, boolean>)[UI_REQUEST] = true;
}

export function isUiRequest(request: FastifyRequest): boolean {
  return (request as unknown as Record<symbol, boolean | undefined>)[UI_REQUEST] === true;
}
