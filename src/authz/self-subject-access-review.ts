// SelfSubjectAccessReview (pkg/registry/authorization/selfsubjectaccessreview): validate the
// review, turn its attributes into the attributes of a request (authorizationutil
// ResourceAttributesFrom / NonResourceAttributesFrom) and ask the very authorizer every request
// goes through, for the caller's own (or impersonated) identity. The answer is the review itself
// with its status filled in; nothing is stored.
import type { UserInfo } from '../auth/user-info';
import { InvalidError } from '../domain/errors/domain-errors';
import { type FieldError, fieldErrors } from '../domain/errors/field-error';
import { metadataErrors, nonResourceAttributesGoSyntax, selectorErrors } from './access-review-validation';
import type { Authorizer, AuthorizerDecision } from './authorizer';
import { nonResourceAttributes, type RequestAttributes } from './request-attributes';

type Plain = Record<string, unknown>;

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
/** ValidateSelfSubjectAccessReview: exactly one attribute kind, and metadata empty but for managedFields. */
export function validateSelfSubjectAccessReview(review: Plain): FieldError[] {
  const spec = (review.spec ?? {}) as Plain;
  const resource = spec.resourceAttributes as Plain | undefined;
  const nonResource = spec.nonResourceAttributes as Plain | undefined;
  const errors: FieldError[] = [];
  if (resource && nonResource) {
    errors.push(fieldErrors.invalid('spec.nonResourceAttributes', nonResourceAttributesGoSyntax(nonResource), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!resource && !nonResource) {
    // A nil pointer BadValue renders as the string "null".
    errors.push(fieldErrors.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  errors.push(...selectorErrors(resource));
  errors.push(...metadataErrors(review, [], 'must be empty'));
  return errors;
}

/** The request attributes the review asks about; an empty version matches every version. */
export function reviewAttributes(spec: Plain): RequestAttributes {
  const resource = spec.resourceAttributes as Plain | undefined;
  if (resource) {
    return {
      isResourceRequest: true,
      path: '',
      verb: str(resource.verb),
      apiPrefix: '',
      apiGroup: str(resource.group),
      apiVersion: str(resource.version) || '*',
      namespace: str(resource.namespace),
      resource: str(resource.resource),
      subresource: str(resource.subresource),
      name: str(resource.name),
    };
  }
  const nonResource = (spec.nonResourceAttributes ?? {}) as Plain;
  return nonResourceAttributes(str(nonResource.path), str(nonResource.verb));
}

/** The status a review reports for a decision: allowed, denied, the union's reason and its error. */
export function accessReviewStatus(decision: AuthorizerDecision): SubjectAccessReviewStatus {
  const status: SubjectAccessReviewStatus = { allowed: decision.allowed };
  if (decision.denied) status.denied = true;
  if (decision.reviewReason) status.reason = decision.reviewReason;
  if (decision.error !== undefined) status.evaluationError = decision.error;
  return status;
}

/**
 * The review's answer: the decoded review with its status set. Throws InvalidError (422) with
 * kube-apiserver's causes for an invalid review.
 */
export async function answerSelfSubjectAccessReview(authorizer: Authorizer, user: UserInfo, review: Plain): Promise<Plain> {
  const errors = validateSelfSubjectAccessReview(review);
  if (errors.length > 0) throw new InvalidError('SelfSubjectAccessReview', '', errors, 'authorization.k8s.io');
  const decision = await authorizer.authorize(user, reviewAttributes((review.spec ?? {}) as Plain));
  return { ...review, status: accessReviewStatus(decision) };
}
