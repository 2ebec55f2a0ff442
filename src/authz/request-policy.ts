// The policy the authorization hook decided a request with, kept on the request so the review
// endpoints ask exactly the authorizer that let them through (a restart is the only reload).
import type { FastifyRequest } from 'fastify';
import type { AbacPolicy } from './abac-policy';

const POLICY = Symbol('svctrail.policy');

export function setRequestPolicy(request: FastifyRequest, policy: AbacPolicy): void {
  (request as unknown as Record<symbol, AbacPolicy>)[POLICY] = policy;
}

export function requestPolicy(request: FastifyRequest): AbacPolicy {
  const policy = (request as unknown as Record<symbol, AbacPolicy | undefined>)[POLICY];
  if (!policy) throw new Error('request reached a controller without authorization');
  return policy;
}
