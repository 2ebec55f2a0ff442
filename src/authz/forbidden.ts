// The 403 for a denied request: responsewriters.Forbidden's message (forbiddenMessage, HTML
// metacharacters escaped by its sanitizer) wrapped by apierrors.NewForbidden, with `: <reason>`
// when the authorizer gave one. svctrail's own chain gives none, as RBAC gives none for a plain
// denial (ABAC's "No policy matched." would be); a cluster's SubjectAccessReview may.
import type { UserInfo } from '../auth/user-info';
import { strconvQuote } from '../domain/codec/go-quote';
import { ApiError } from '../kube-api/api-errors';
import type { RequestAttributes } from './request-attributes';

/** forbiddenMessage */
export function forbiddenMessage(user: UserInfo, attributes: RequestAttributes): string {
  const who = `User ${strconvQuote(user.name)}`;
  if (!attributes.isResourceRequest) return `${who} cannot ${attributes.verb} path ${strconvQuote(attributes.path)}`;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const what = `${who} cannot ${attributes.verb} resource ${strconvQuote(resource)} in API group ${strconvQuote(attributes.apiGroup)}`;
  if (attributes.namespace) return `${what} in the namespace ${strconvQuote(attributes.namespace)}`;
  return `${what} at the cluster scope`;
}

/** apierrors.NewForbidden(GroupResource{apiGroup, resource}, name, message). */
export function forbiddenError(user: UserInfo, attributes: RequestAttributes, reason = ''): ApiError {
  const message = sanitize(forbiddenMessage(user, attributes)) + (reason ? `: ${reason}` : '');
  const { apiGroup: group, resource, name } = attributes;
  const qualified = group ? `${resource}.${group}` : resource;
  let text: string;
  if (qualified === '') text = `forbidden: ${message}`;
  else if (name === '') text = `${qualified} is forbidden: ${message}`;
  else text = `${qualified} ${strconvQuote(name)} is forbidden: ${message}`;
  return new ApiError(403, 'Forbidden', text, { name, group, kind: resource });
}

/** responsewriters' sanitizer: error texts must not look like HTML. */
function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
