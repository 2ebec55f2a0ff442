import { forwardedHeaders, forwardedIdentity, REPLICA_TOKEN_HEADER } from './forwarded-write';

const identity = { user: { name: 'alice', uid: 'u-1', groups: ['ops', 'system:authenticated'], extra: { scopes: ['a', 'b'] } }, requestId: 'req-1' };

describe('a forwarded write', () => {
  it('given a client request, when forwarded, then its credentials, impersonation and hop-by-hop headers stay behind and who it is for goes along', () => {
    const headers = forwardedHeaders(
      {
        authorization: 'Bearer secret',
        'impersonate-user': 'bob',
        'impersonate-group': 'admins',
        connection: 'keep-alive',
        'transfer-encoding': 'chunked',
        expect: '100-continue',
        host: 'follower:6443',
        'content-length': '999',
        'content-type': 'application/json',
        accept: 'application/vnd.kubernetes.protobuf',
        'user-agent': 'kubectl/v1.33',
        'x-svctrail-forwarded-identity': 'forged',
      },
      identity,
      'tok',
      12,
    );
    expect(Object.keys(headers).sort()).toEqual(
      ['accept', 'content-length', 'content-type', 'user-agent', 'x-svctrail-forwarded-identity', 'x-svctrail-forwarded-request-id', REPLICA_TOKEN_HEADER].sort(),
    );
    expect(headers['content-length']).toBe(12);
    expect(headers['user-agent']).toBe('kubectl/v1.33');
  });

  it('given the leader holds the token, when it reads the headers, then it gets the identity and request id back as sent', () => {
    const headers = forwardedHeaders({}, identity, 'tok', 0) as Record<string, string>;
    expect(forwardedIdentity(headers, 'tok')).toEqual(identity);
  });

  it('given any other token, or none held, then the write is misdirected; without the token header it is not a forwarded write at all', () => {
    const headers = forwardedHeaders({}, identity, 'tok', 0) as Record<string, string>;
    expect(forwardedIdentity(headers, 'other')).toBe('misdirected');
    expect(forwardedIdentity(headers, 'to')).toBe('misdirected');
    expect(forwardedIdentity(headers, undefined)).toBe('misdirected');
    const { [REPLICA_TOKEN_HEADER]: _token, ...identityOnly } = headers;
    expect(forwardedIdentity(identityOnly, 'tok')).toBeUndefined();
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['no name', Buffer.from(JSON.stringify({ groups: [] })).toString('base64url')],
    ['groups not strings', Buffer.from(JSON.stringify({ name: 'a', groups: [1] })).toString('base64url')],
    ['extra not string lists', Buffer.from(JSON.stringify({ name: 'a', groups: [], extra: { k: 'v' } })).toString('base64url')],
    ['a number', Buffer.from('7').toString('base64url')],
  ])('given the right token and an identity that is %s, then it is refused', (_what, encoded) => {
    const headers = { ...(forwardedHeaders({}, identity, 'tok', 0) as Record<string, string>), 'x-svctrail-forwarded-identity': encoded };
    expect(forwardedIdentity(headers, 'tok')).toBe('misdirected');
  });
});
