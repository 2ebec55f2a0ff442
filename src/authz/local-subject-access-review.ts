// LocalSubjectAccessReview (pkg/registry/authorization/localsubjectaccessreview): a
// SubjectAccessReview confined to the namespace of its path, which a namespace admin may be
// allowed to ask without asking about the whole cluster. The body's metadata.namespace defaults
// to the path's (the create handler's EnsureObjectNamespaceMatchesRequestNamespace), and the
// resource attributes must name that namespace; non-resource attributes are refused.
import { InvalidError, BadRequestError } from '../domain/errors/domain-errors';
import { fieldErrors } from '../domain/errors/field-error';
import { metadataErrors, nonResourceAttributesGoSyntax } from './access-review-validation';
import type { Authorizer } from './authorizer';
import { accessReviewStatus, reviewAttributes } from './self-subject-access-review';
import { specUser, validateSubjectAccessReviewSpec } from './subject-access-review';

type Plain = Record<string, unknown>;

/** The review with its status set; throws BadRequestError (400) or InvalidError (422) as kube-apiserver. */
export async function answerLocalSubjectAccessReview(authorizer: Authorizer, review: Plain, namespace: string): Promise<Plain> {
  const metadata = { ...((review.metadata ?? {}) as Plain) };
  const given = typeof metadata.namespace === 'string' ? metadata.namespace : '';
  if (given !== '' && given !== namespace) throw new BadRequestError('the namespace of the provided object does not match the namespace sent on the request');
  metadata.namespace = namespace;
  const local = { ...review, metadata };
  const spec = (review.spec ?? {}) as Plain;
  const resource = spec.resourceAttributes as Plain | undefined;
  const nonResource = spec.nonResourceAttributes as Plain | undefined;
  const errors = [...validateSubjectAccessReviewSpec(spec), ...metadataErrors(local, ['namespace'], 'must be empty except for namespace')];
  const asked = typeof resource?.namespace === 'string' ? resource.namespace : '';
  if (resource && asked !== namespace) errors.push(fieldErrors.invalid('spec.resourceAttributes.namespace', asked, 'must match metadata.namespace'));
  if (nonResource) errors.push(fieldErrors.invalid('spec.nonResourceAttributes', nonResourceAttributesGoSyntax(nonResource), 'disallowed on this kind of request'));
  if (errors.length > 0) throw new InvalidError('LocalSubjectAccessReview', '', errors, 'authorization.k8s.io');
  const decision = await authorizer.authorize(specUser(spec), reviewAttributes(spec));
  return { ...local, status: accessReviewStatus(decision) };
}
