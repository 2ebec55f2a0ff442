// A write one replica forwards to the write leader (store/ports/write-leadership.ts): the
// follower has authenticated, impersonated and authorized it, so it sends who the request is for
// and its request id in headers, with the leader's token to show that a replica of the same store
// says so. The leader believes those headers only with its current token; a request with any
// other token was meant for a leader it no longer is, and is refused without being run.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../auth/user-info';
import type { RequestIdentity } from './request-identity';

export const REPLICA_TOKEN_HEADER = 'x-svctrail-replica-token';
const IDENTITY_HEADER = 'x-svctrail-forwarded-identity';
const REQUEST_ID_HEADER = 'x-svctrail-forwarded-request-id';
/** On the leader's refusal: this replica does not lead (any more); nothing was run. */
export const NOT_LEADER_HEADER = 'x-svctrail-not-leader';

/** Not sent on: hop-by-hop headers, `Expect` (the body is already read), and what the follower already decided (credentials, impersonation). */
const DROPPED = /^(authorization|connection|keep-alive|proxy-.*|te|trailer|transfer-encoding|upgrade|expect|host|content-length|impersonate-.*|x-svctrail-.*)$/;

/** The headers a forwarded write carries: the client's own (less the dropped), who it is for, and the token. */
export function forwardedHeaders(headers: IncomingHttpHeaders, identity: RequestIdentity, token: string, bodyLength: number): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !DROPPED.test(name)) out[name] = value;
  out[REPLICA_TOKEN_HEADER] = token;
  out[IDENTITY_HEADER] = Buffer.from(JSON.stringify(identity.user)).toString('base64url');
  out[REQUEST_ID_HEADER] = identity.requestId;
  out['content-length'] = bodyLength;
  return out;
}

/**
 * On the leader: the identity a forwarded write is for; undefined when the request is not a
 * forwarded one; 'misdirected' when its token is not `heldToken` (or nothing is held).
 */
export function forwardedIdentity(headers: IncomingHttpHeaders, heldToken: string | undefined): RequestIdentity | 'misdirected' | undefined {
  const token = headers[REPLICA_TOKEN_HEADER];
  if (token === undefined) return undefined;
  if (typeof token !== 'string' || heldToken === undefined || !sameToken(token, heldToken)) return 'misdirected';
  const encoded = headers[IDENTITY_HEADER];
  const requestId = headers[REQUEST_ID_HEADER];
  if (typeof encoded !== 'string' || typeof requestId !== 'string' || requestId === '') return 'misdirected';
  const user = userOf(encoded);
  return user ? { user, requestId } : 'misdirected';
}

function sameToken(given: string, held: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(held);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The user as the follower sent it, checked to be a UserInfo's shape. */
function userOf(encoded: string): UserInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, uid, groups, extra } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name === '' || !isStrings(groups)) return undefined;
  if (uid !== undefined && typeof uid !== 'string') return undefined;
  if (extra !== undefined && (typeof extra !== 'object' || extra === null || !Object.values(extra).every(isStrings))) return undefined;
  return { name, groups, ...(uid !== undefined ? { uid } : {}), ...(extra !== undefined ? { extra: extra as Record<string, string[]> } : {}) };
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
