// Fastify onRequest hook between authentication and authorization, as WithImpersonation sits in
// k8s.io/apiserver's chain: a request with Impersonate-* headers acts as someone else once the
// authorizer allows its user the verb `impersonate` on each thing asked (users, groups,
// serviceaccounts in their namespace, userextras/<key> and uids of authentication.k8s.io).
// The first refusal answers 403 with that check's attributes; the rest of the request, its
// authorization included, then sees only the impersonated user.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { impersonatedUser } from '../auth/impersonated-user';
import { type ImpersonationRequest, impersonationRequests } from '../auth/impersonation-request';
import { BadRequestError } from '../domain/errors/domain-errors';
import { statusForError } from '../kube-api/kube-status';
import { sendStatus } from '../kube-api/kube-response';
import { identityOf, isUiRequest, setIdentity } from '../kube-api/request-identity';
import type { LoggedRequest } from '../observability/logging.module';
import type { Authorizer } from './authorizer';
import { forbiddenError } from './forbidden';
import type { RequestAttributes } from './request-attributes';

export function impersonationHook(authorizer: Authorizer) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void | FastifyReply> => {
    if (reply.sent || isUiRequest(request)) return;
    let requests: ImpersonationRequest[];
    try {
      requests = impersonationRequests(request.raw.headersDistinct);
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
      sendStatus(request, reply, statusForError(error)!);
      return reply;
    }
    if (requests.length === 0) return;
    const { user: requestor, requestId } = identityOf(request);
    for (const asked of requests) {
      const attributes = actingAsAttributes(asked);
      const decision = await authorizer.authorize(requestor, attributes);
      if (decision.allowed) continue;
      reply.header('x-content-type-options', 'nosniff');
      sendStatus(request, reply, statusForError(forbiddenError(requestor, attributes, decision.forbiddenReason))!);
      return reply;
    }
    const user = impersonatedUser(requests);
    // The request line names whom it acted as (kube-apiserver's httplog: "X is impersonating Y").
    (request.raw as unknown as LoggedRequest).svctrailUser = `${requestor.name} as ${user.name}`;
    setIdentity(request, { user, requestId });
  };
}

/** The attributes each impersonation is authorized with. */
function actingAsAttributes(asked: ImpersonationRequest): RequestAttributes {
  const base = { isResourceRequest: true, path: '', verb: 'impersonate', apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', subresource: '' };
  switch (asked.kind) {
    case 'User':
      return { ...base, resource: 'users', name: asked.name };
    case 'ServiceAccount':
      return { ...base, resource: 'serviceaccounts', namespace: asked.namespace, name: asked.name };
    case 'Group':
      return { ...base, resource: 'groups', name: asked.name };
    case 'UserExtra':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'userextras', subresource: asked.key, name: asked.value };
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids', name: asked.uid };
  }
}
