// SelfSubjectReview (pkg/registry/authentication/selfsubjectreview), `kubectl auth whoami`: the
// caller's user as the authenticator saw it (name, uid, groups with system:authenticated, extra),
// or as it impersonates, in a fresh object stamped with the time of the answer. Nothing is stored.
import type { UserInfo } from './user-info';

export function answerSelfSubjectReview(user: UserInfo, apiVersion: string, now: Date): Record<string, unknown> {
  const userInfo: Record<string, unknown> = { username: user.name };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
  return {
    kind: 'SelfSubjectReview',
    apiVersion,
    metadata: { creationTimestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z') },
    status: { userInfo },
  };
}
