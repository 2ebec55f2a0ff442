// SubjectAccessReview (pkg/registry/authorization/subjectaccessreview): whether the user the spec
// names (user, uid, groups, extra: taken as given, no system:authenticated added) may do what its
// attributes say, answered by the very authorizer every request goes through. This is what a
// delegating server (k8s.io/apiserver's webhook authorizer) and `kubectl auth can-i --as` ask.
// The answer is the review with its status set; nothing is stored.
import type { UserInfo } from '../auth/user-info';
import { InvalidError } from '../domain/errors/domain-errors';
import { type FieldError, fieldErrors } from '../domain/errors/field-error';
import { metadataErrors, nonResourceAttributesGoSyntax, selectorErrors } from './access-review-validation';
import type { Authorizer } from './authorizer';
import { accessReviewStatus, reviewAttributes } from './self-subject-access-review';

type Plain = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** ValidateSubjectAccessReviewSpec: exactly one attribute kind, a user or a group, sound selectors. */
export function validateSubjectAccessReviewSpec(spec: Plain): FieldError[] {
  const resource = spec.resourceAttributes as Plain | undefined;
  const nonResource = spec.nonResourceAttributes as Plain | undefined;
  const errors: FieldError[] = [];
  if (resource && nonResource) {
    errors.push(fieldErrors.invalid('spec.nonResourceAttributes', nonResourceAttributesGoSyntax(nonResource), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!resource && !nonResource) errors.push(fieldErrors.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  if (str(spec.user) === '' && groups.length === 0) errors.push(fieldErrors.invalid('spec.user', '', 'at least one of user or group must be specified'));
  errors.push(...selectorErrors(resource));
  return errors;
}

/** authorizationutil.AuthorizationAttributesFrom's user: the spec's, as given. */
export function specUser(spec: Plain): UserInfo {
  const extra = spec.extra as Record<string, string[]> | undefined;
  return {
    name: str(spec.user),
    ...(str(spec.uid) !== '' ? { uid: str(spec.uid) } : {}),
    groups: Array.isArray(spec.groups) ? (spec.groups as string[]) : [],
    ...(extra && Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

/** The review with its status set; throws InvalidError (422) with kube-apiserver's causes. */
export async function answerSubjectAccessReview(authorizer: Authorizer, review: Plain): Promise<Plain> {
  const spec = (review.spec ?? {}) as Plain;
  const errors = [...validateSubjectAccessReviewSpec(spec), ...metadataErrors(review, [], 'must be empty')];
  if (errors.length > 0) throw new InvalidError('SubjectAccessReview', '', errors, 'authorization.k8s.io');
  const decision = await authorizer.authorize(specUser(spec), reviewAttributes(spec));
  return { ...review, status: accessReviewStatus(decision) };
}
