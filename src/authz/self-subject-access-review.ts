// SelfSubjectAccessReview (pkg/registry/authorization/selfsubjectaccessreview): validate the
// review, turn its attributes into the attributes of a request (authorizationutil
// ResourceAttributesFrom / NonResourceAttributesFrom) and ask the very authorizer chain every
// request goes through, for the caller's own identity. The answer is the review itself with its
// status filled in; nothing is stored.
import type { UserInfo } from '../auth/user-info';
import { objectMetaGoSyntax } from '../domain/codec/object-meta-go-syntax';
import { InvalidError } from '../domain/errors/domain-errors';
import { type FieldError, fieldErrors, GoLiteral } from '../domain/errors/field-error';
import type { AbacPolicy } from './abac-policy';
import { nonResourceAttributes, type RequestAttributes } from './request-attributes';
import { authorize } from './request-authorizer';

type Plain = Record<string, unknown>;

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function isZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value as Plain).every(isZero);
  return false;
}

/** internal authorization.NonResourceAttributes with %#v, the BadValue of the "both" error. */
function nonResourceAttributesGoSyntax(attributes: Plain): GoLiteral {
  return new GoLiteral(`authorization.NonResourceAttributes{Path:${JSON.stringify(str(attributes.path))}, Verb:${JSON.stringify(str(attributes.verb))}}`);
}

/**
 * validateResourceAttributes (1.31+): a selector gives a raw selector or requirements, not both.
 * The requirements' own checks (ValidateLabelSelectorRequirement and its field twin) are not
 * reproduced: ABAC ignores selectors, so they never change an answer.
 */
function selectorErrors(resource: Plain | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['fieldSelector', 'labelSelector']) {
    const selector = resource?.[key] as Plain | undefined;
    if (!selector) continue;
    const path = `spec.resourceAttributes.${key}`;
    const raw = str(selector.rawSelector);
    const requirements = Array.isArray(selector.requirements) ? selector.requirements : [];
    if (raw !== '' && requirements.length > 0) errors.push(fieldErrors.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
    if (raw === '' && requirements.length === 0) errors.push(fieldErrors.required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  }
  return errors;
}

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
  const metadata = (review.metadata ?? {}) as Plain;
  if (!isZero({ ...metadata, managedFields: undefined })) {
    errors.push(fieldErrors.invalid('metadata', new GoLiteral(objectMetaGoSyntax(metadata)), 'must be empty'));
  }
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

/**
 * The review's answer: the decoded review with its status set. Throws InvalidError (422) with
 * kube-apiserver's causes for an invalid review.
 */
export function answerSelfSubjectAccessReview(policy: AbacPolicy, user: UserInfo, review: Plain): Plain {
  const errors = validateSelfSubjectAccessReview(review);
  if (errors.length > 0) throw new InvalidError('SelfSubjectAccessReview', '', errors, 'authorization.k8s.io');
  const decision = authorize(policy, user, reviewAttributes((review.spec ?? {}) as Plain));
  // No authorizer in the chain ever denies outright or fails, so `denied` and `evaluationError` stay unset.
  const status: SubjectAccessReviewStatus = { allowed: decision.allowed };
  if (decision.reviewReason) status.reason = decision.reviewReason;
  return { ...review, status };
}
