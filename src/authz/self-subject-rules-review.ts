// SelfSubjectRulesReview (pkg/registry/authorization/selfsubjectrulesreview): the rules the
// authorizer chain's rule resolvers report for the caller in spec.namespace. As upstream, the
// answer is a fresh object: neither the request's metadata nor its spec are echoed.
import type { UserInfo } from '../auth/user-info';
import { BadRequestError } from '../domain/errors/domain-errors';
import type { Authorizer } from './authorizer';

type Plain = Record<string, unknown>;

export function answerSelfSubjectRulesReview(authorizer: Authorizer, user: UserInfo, review: Plain): Plain {
  const spec = (review.spec ?? {}) as Plain;
  const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
  if (namespace === '') throw new BadRequestError('no namespace on request');
  const rules = authorizer.rulesFor(user, namespace);
  return {
    kind: review.kind,
    apiVersion: review.apiVersion,
    metadata: {},
    spec: {},
    status: {
      resourceRules: rules.resourceRules,
      nonResourceRules: rules.nonResourceRules,
      incomplete: rules.incomplete,
      ...(rules.evaluationError !== undefined ? { evaluationError: rules.evaluationError } : {}),
    },
  };
}
