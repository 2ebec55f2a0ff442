// The identity a request acts as once every impersonation it asks for was allowed (k8s.io/apiserver
// WithImpersonation): the named user or service account, the groups given (a service account's
// fixed ones when none are), extras and UID, and system:authenticated added unless a group already
// says authenticated or unauthenticated (system:unauthenticated for system:anonymous).
import type { ImpersonationRequest } from './impersonation-request';
import { ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, type UserInfo } from './user-info';

const ANONYMOUS = 'system:anonymous';

export function impersonatedUser(requests: readonly ImpersonationRequest[]): UserInfo {
  const groupsGiven = requests.some((r) => r.kind === 'Group');
  let name = '';
  let uid = '';
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const request of requests) {
    switch (request.kind) {
      case 'User':
        name = request.name;
        break;
      case 'ServiceAccount':
        name = `system:serviceaccount:${request.namespace}:${request.name}`;
        // serviceaccount.MakeGroupNames
        if (!groupsGiven) groups.push('system:serviceaccounts', `system:serviceaccounts:${request.namespace}`);
        break;
      case 'Group':
        groups.push(request.name);
        break;
      case 'UserExtra':
        (extra[request.key] ??= []).push(request.value);
        break;
      case 'UID':
        uid = request.uid;
        break;
    }
  }
  if (name !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED_GROUP) && !groups.includes(ALL_UNAUTHENTICATED_GROUP)) groups.push(ALL_AUTHENTICATED_GROUP);
  } else if (!groups.includes(ALL_UNAUTHENTICATED_GROUP)) groups.push(ALL_UNAUTHENTICATED_GROUP);
  return { name, ...(uid !== '' ? { uid } : {}), groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}
