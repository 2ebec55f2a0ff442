// Request authentication in kube-apiserver's order (pkg/kubeapiserver/authenticator/config.go):
// a union of the x509 client-certificate authenticator, then bearer tokens; the first that
// succeeds wins, and a failure in one (an unverified certificate, say) falls through to the
// next. So a verified client certificate authenticates even beside a wrong token, and a valid
// token still authenticates when the presented certificate is not trusted. The result then
// passes through the AuthenticatedGroupAdder, which appends system:authenticated.
import type { PeerCertificate } from 'node:tls';
import type { TokenIndex } from './token-index';
import { ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, type UserInfo } from './user-info';

export interface RequestCredentials {
  authorizationHeader?: string;
  /** `socket.getPeerCertificate()`; Node returns `{}` when the client sent none. */
  peerCertificate?: PeerCertificate | null;
  /** `socket.authorized`: the chain verified against the server's `ca` option (the data dir's CA). */
  peerAuthorized: boolean;
}

const CLIENT_AUTH_EKU = '1.3.6.1.5.5.7.3.2';
const ANY_EKU = '2.5.29.37.0';

/** The user, or null for a 401: svctrail's own credentials (request-authenticator.ts adds a cluster's tokens). */
export function authenticateRequest(request: RequestCredentials, tokens: TokenIndex): UserInfo | null {
  const token = bearerTokenOf(request.authorizationHeader);
  const user = authenticateCertificate(request) ?? (token === undefined ? null : tokens.lookup(token));
  return user && withAuthenticatedGroup(user);
}

/**
 * k8s.io/apiserver x509.Authenticator with CommonNameUserConversion: the chain must verify with
 * the clientAuth usage, the subject CN is the user (an empty CN authenticates nobody) and every
 * subject O is a group.
 */
export function authenticateCertificate({ peerCertificate, peerAuthorized }: RequestCredentials): UserInfo | null {
  if (!peerAuthorized || !hasCertificate(peerCertificate)) return null;
  // Go's verifier requires clientAuth or any EKU when the leaf lists extended key usages.
  const usages = peerCertificate.ext_key_usage;
  if (usages && usages.length > 0 && !usages.includes(CLIENT_AUTH_EKU) && !usages.includes(ANY_EKU)) return null;
  // Go keeps the last CN when a subject has several.
  const name = lastValue(peerCertificate.subject.CN);
  if (!name) return null;
  return { name, groups: allValues(peerCertificate.subject.O) };
}

/**
 * k8s.io/apiserver bearertoken.Authenticator: the token of a "Bearer <token>" header; a header
 * that is not one is ignored (no credentials), an empty token is a failure (undefined either way).
 */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const value = header?.trim() ?? '';
  if (value === '') return undefined;
  // strings.SplitN(auth, " ", 3): anything after a second space is dropped, like upstream.
  const parts = value.split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return undefined;
  return parts[1] === '' ? undefined : parts[1];
}

/** k8s.io/apiserver group.AuthenticatedGroupAdder. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(ALL_AUTHENTICATED_GROUP) || user.groups.includes(ALL_UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED_GROUP] };
}

function hasCertificate(certificate: PeerCertificate | null | undefined): certificate is PeerCertificate {
  return !!certificate && certificate.raw !== undefined && certificate.subject !== undefined;
}

// Node gives a repeated subject attribute as an array and a single one as a string.
function allValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value];
}

function lastValue(value: string | string[] | undefined): string | undefined {
  const values = allValues(value);
  return values[values.length - 1];
}
