// What a request asks to act as, read from its Impersonate-* headers as k8s.io/apiserver's
// buildImpersonationRequests does (pkg/endpoints/filters/impersonation/impersonation.go): the
// user (a service account when it is system:serviceaccount:<namespace>:<name> with valid names),
// each Impersonate-Group line, each value of each Impersonate-Extra-<key> (the key lowercased,
// then %-decoded), the UID. Groups, extras or a UID without a user are a 400.
import { isDNS1123Label, isDNS1123Subdomain } from '../domain/validation/name-validation';
import { BadRequestError } from '../domain/errors/domain-errors';

export type ImpersonationRequest =
  | { kind: 'User'; name: string }
  | { kind: 'ServiceAccount'; namespace: string; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'UserExtra'; key: string; value: string }
  | { kind: 'UID'; uid: string };

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const AUTHENTICATION_V1 = 'authentication.k8s.io/v1';

/**
 * `headers`: each header's lines as sent (Node's headersDistinct), names lowercased. Node joins
 * repeated lines of an unknown header with ", ", so reading the joined value would merge groups.
 */
export function impersonationRequests(headers: Record<string, string[] | undefined>): ImpersonationRequest[] {
  const requests: ImpersonationRequest[] = [];
  // http.Header.Get: the first line.
  const user = headers[USER_HEADER]?.[0] ?? '';
  if (user !== '') requests.push(serviceAccountOf(user) ?? { kind: 'User', name: user });
  const groups = headers[GROUP_HEADER] ?? [];
  for (const name of groups) requests.push({ kind: 'Group', name });
  let extras = false;
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_PREFIX)) continue;
    extras = true;
    const key = unescapeExtraKey(header.slice(EXTRA_PREFIX.length));
    for (const value of values ?? []) requests.push({ kind: 'UserExtra', key, value });
  }
  const uid = headers[UID_HEADER]?.[0] ?? '';
  if (uid !== '') requests.push({ kind: 'UID', uid });
  if ((groups.length > 0 || extras || uid !== '') && user === '') {
    throw new BadRequestError(`requested [${requests.map(objectReferenceText).join(' ')}] without impersonating a user`);
  }
  return requests;
}

/** serviceaccount.SplitUsername: a namespace that is a DNS label and a name that is a DNS subdomain. */
function serviceAccountOf(user: string): ImpersonationRequest | undefined {
  if (!user.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = user.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { kind: 'ServiceAccount', namespace, name };
}

/** url.PathUnescape, keeping the key as it is when it is not well-formed. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** `%v` of the v1.ObjectReference upstream builds: Kind, Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath. */
function objectReferenceText(request: ImpersonationRequest): string {
  let fields: string[];
  switch (request.kind) {
    case 'User':
    case 'Group':
      fields = [request.kind, '', request.name, '', '', '', ''];
      break;
    case 'ServiceAccount':
      fields = ['ServiceAccount', request.namespace, request.name, '', '', '', ''];
      break;
    case 'UserExtra':
      fields = ['UserExtra', '', request.value, '', AUTHENTICATION_V1, '', request.key];
      break;
    case 'UID':
      fields = ['UID', '', request.uid, '', AUTHENTICATION_V1, '', ''];
      break;
  }
  return `{${fields.join(' ')}}`;
}
