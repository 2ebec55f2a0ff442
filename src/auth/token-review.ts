// TokenReview (pkg/registry/authentication/tokenreview): who a bearer token belongs to, as
// svctrail's own authenticator sees the token alone (its token file, then the cluster's
// TokenReview when svctrail delegates): status.authenticated, the user (groups with
// system:authenticated), the audiences it is good for of those asked, and why it could not be
// judged. A review without a token is a 400. The answer echoes the review; nothing is stored.
import { BadRequestError } from '../domain/errors/domain-errors';
import type { RequestAuthenticator } from './request-authenticator';

type Plain = Record<string, unknown>;

export async function answerTokenReview(authenticator: RequestAuthenticator, review: Plain): Promise<Plain> {
  const spec = (review.spec ?? {}) as Plain;
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (token === '') throw new BadRequestError('token is required for TokenReview in authentication');
  const audiences = Array.isArray(spec.audiences) ? (spec.audiences as string[]) : [];
  const { user, audiences: good, error } = await authenticator.authenticateToken(token, audiences);
  const status: Plain = {};
  if (user) status.authenticated = true;
  status.user = user ? { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) } : {};
  if (user && good && good.length > 0) status.audiences = good;
  if (error !== undefined) status.error = error;
  return { ...review, status };
}
