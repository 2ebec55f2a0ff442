import type { UserInfo } from '../auth/user-info';
import { parsePolicy } from './abac-policy';
import { requestAttributes } from './request-attributes';
import { authorize } from './request-authorizer';

const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });
const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const V1 = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

describe('authorize: system:masters, bootstrap roles, then ABAC', () => {
  const empty = parsePolicy('', 'p');

  it('system:masters may do anything, with no policy at all', () => {
    const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
    for (const [method, url] of [
      ['DELETE', '/api/v1/namespaces/a/services/web'],
      ['POST', '/no/such/path'],
      ['GET', '/metrics'],
    ]) {
      expect(authorize(empty, admin, requestAttributes(method, url))).toEqual({ allowed: true, reason: 'member of system:masters', reviewReason: '' });
    }
  });

  it.each([
    ['/healthz', true, true],
    ['/livez', true, true],
    ['/readyz', true, true],
    ['/version', true, true],
    ['/version/', true, true],
    ['/api', false, true],
    ['/api/v1', false, true],
    ['/apis', false, true],
    ['/apis/history.svctrail.io/v1alpha1', false, true],
    ['/openapi/v2', false, true],
    ['/openapi/v3/api/v1?hash=abc', false, true],
    ['/healthz/ping', false, false],
    ['/metrics', false, false],
    ['/', false, false],
    ['/apiextra', false, false],
  ])('GET %s: anonymous %s, any authenticated user %s', (url, forAnonymous, forAuthenticated) => {
    expect(authorize(empty, anonymous, requestAttributes('GET', url)).allowed).toBe(forAnonymous);
    expect(authorize(empty, user('nobody'), requestAttributes('GET', url)).allowed).toBe(forAuthenticated);
  });

  it('the bootstrap roles grant the verb get only', () => {
    expect(authorize(empty, user('nobody'), requestAttributes('POST', '/api')).allowed).toBe(false);
    expect(authorize(empty, anonymous, requestAttributes('HEAD', '/healthz')).allowed).toBe(false);
  });

  it('bootstrap roles never cover resource requests', () => {
    expect(authorize(empty, user('nobody'), requestAttributes('GET', '/api/v1/services'))).toEqual({ allowed: false, reason: 'No policy matched.', reviewReason: 'No policy matched.' });
  });

  describe('ABAC matching (upstream TestAuthorizeV0 / V1beta1 cases)', () => {
    const policy = parsePolicy(
      [
        '{                    "readonly": true, "resource": "events"   }',
        '{"user":"scheduler", "readonly": true, "resource": "pods"     }',
        '{"user":"scheduler",                   "resource": "bindings" }',
        '{"user":"alice",                                              "namespace": "projectCaribou"}',
        '{"user":"bob",       "readonly": true,                        "namespace": "projectCaribou"}',
        V1({ user: 'noresource', nonResourcePath: '*' }),
        V1({ user: '*', nonResourcePath: '/root/*' }),
        V1({ user: '*', readonly: true, nonResourcePath: '/custom' }),
        V1({ user: 'apigroupuser', resource: '*', namespace: 'projectEmptyGroup', apiGroup: '' }),
        V1({ user: 'apigroupuser', resource: '*', namespace: 'projectXGroup', apiGroup: 'x' }),
        V1({ group: 'ops', user: 'carol', resource: 'services', namespace: '*', apiGroup: '*' }),
        V1({ user: 'writer', resource: 'services/status', namespace: 'a', apiGroup: '' }),
        V1({ user: 'svc', resource: 'services', namespace: 'a', apiGroup: '' }),
        V1({ user: 'clusterwide', readonly: true, resource: 'services', namespace: '', apiGroup: '' }),
      ].join('\n'),
      'policy.jsonl',
    );

    it.each([
      ['scheduler', 'GET', '/api/v1/namespaces/ns1/pods', true],
      ['scheduler', 'GET', '/api/v1/pods', true],
      ['scheduler', 'POST', '/api/v1/namespaces/ns1/pods', false],
      ['scheduler', 'POST', '/api/v1/namespaces/ns1/bindings', true],
      ['alice', 'GET', '/api/v1/namespaces/projectCaribou/pods/x', true],
      ['alice', 'PUT', '/apis/bar/v1/namespaces/projectCaribou/foo/x', true],
      ['alice', 'GET', '/api/v1/namespaces/ns1/pods', false],
      ['alice', 'GET', '/api/v1/pods', false],
      ['bob', 'GET', '/api/v1/namespaces/projectCaribou/services?watch=1', true],
      ['bob', 'DELETE', '/api/v1/namespaces/projectCaribou/services/x', false],
      ['chuck', 'GET', '/api/v1/namespaces/ns1/events', true],
      ['chuck', 'PUT', '/api/v1/namespaces/ns1/events/e', false],
      ['chuck', 'GET', '/api/v1/namespaces/ns1/pods', false],
      ['chuck', 'GET', '/', false],
      ['chuck', 'GET', '/root/x/y', true],
      ['chuck', 'POST', '/root/', true],
      ['chuck', 'GET', '/rootx', false],
      ['chuck', 'GET', '/custom', true],
      ['chuck', 'POST', '/custom', false],
      ['noresource', 'DELETE', '/anything', true],
      ['noresource', 'GET', '/api/v1/namespaces/a/services', false],
      ['apigroupuser', 'GET', '/api/v1/namespaces/projectEmptyGroup/pods', true],
      ['apigroupuser', 'GET', '/apis/x/v1/namespaces/projectEmptyGroup/pods', false],
      ['apigroupuser', 'GET', '/apis/x/v1/namespaces/projectXGroup/pods', true],
      ['apigroupuser', 'GET', '/api/v1/namespaces/projectXGroup/pods', false],
      // a named user and a named group must both match
      ['carol', 'GET', '/api/v1/namespaces/a/services', false],
      // services/status covers the subresource only
      ['writer', 'PUT', '/api/v1/namespaces/a/services/web/status', true],
      ['writer', 'PATCH', '/api/v1/namespaces/a/services/web/status', true],
      ['writer', 'GET', '/api/v1/namespaces/a/services/web/status', true],
      ['writer', 'PUT', '/api/v1/namespaces/a/services/web', false],
      ['writer', 'GET', '/api/v1/namespaces/a/services/web', false],
      ['writer', 'PUT', '/api/v1/namespaces/b/services/web/status', false],
      // plain services covers its subresources too, as upstream ABAC ignores them
      ['svc', 'PUT', '/api/v1/namespaces/a/services/web/status', true],
      ['svc', 'DELETE', '/api/v1/namespaces/a/services/web', true],
      // namespace "" matches cluster-scoped requests only: the all-namespaces list
      ['clusterwide', 'GET', '/api/v1/services', true],
      ['clusterwide', 'GET', '/api/v1/namespaces/a/services', false],
    ])('%s %s %s → %s', (name, method, url, allowed) => {
      expect(authorize(policy, user(name), requestAttributes(method, url)).allowed).toBe(allowed);
    });

    it('names the matching line', () => {
      expect(authorize(policy, user('writer'), requestAttributes('PUT', '/api/v1/namespaces/a/services/web/status'))).toEqual({
        allowed: true,
        reason: 'policy.jsonl line 12',
        reviewReason: '',
      });
    });

    it('carol in group ops is allowed', () => {
      expect(authorize(policy, user('carol', 'ops'), requestAttributes('GET', '/api/v1/namespaces/a/services')).allowed).toBe(true);
    });

    it('"*" subjects mean authenticated users: anonymous matches none of them', () => {
      expect(authorize(policy, anonymous, requestAttributes('GET', '/custom')).allowed).toBe(false);
      expect(authorize(policy, anonymous, requestAttributes('GET', '/api/v1/namespaces/ns1/events')).allowed).toBe(false);
    });

    it('a group rule can open paths to anonymous users', () => {
      const open = parsePolicy(V1({ group: 'system:unauthenticated', readonly: true, nonResourcePath: '/metrics' }), 'p');
      expect(authorize(open, anonymous, requestAttributes('GET', '/metrics')).allowed).toBe(true);
    });
  });
});
