// Who may do what, over real HTTPS: every route svctrail serves, for the system:masters admin, a
// read-only user and a status writer for namespace team-a, an authenticated user with no policy,
// and a request without credentials.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { policyFor } from '../../src/authz/policy-presets';
import { requestAttributes } from '../../src/authz/request-attributes';
import { HttpsClient, type RawResponse } from '../helpers/https-client';
import { type AuthzTestServer, startAuthzTestServer } from './authz-test-server';

// Remove once create-server.ts registers authorizationHook (see authz-test-server.ts).

type Who = 'admin' | 'ro' | 'sw' | 'nobody' | 'anonymous';
const NS = '/api/v1/namespaces/team-a';
const MERGE_PATCH = 'application/merge-patch+json';

interface Route {
  name: string;
  method: string;
  path: string;
  body?: () => object;
  contentType?: string;
  /** The answer when allowed; undefined where it depends on work outside authorization (PATCH, openapi). */
  ok?: number;
  watch?: boolean;
  /** Who is allowed; anonymous requests get 401 unless listed. */
  allowed: Who[];
}

const READERS: Who[] = ['admin', 'ro', 'sw'];
const AUTHENTICATED: Who[] = ['admin', 'ro', 'sw', 'nobody'];
const EVERYONE: Who[] = [...AUTHENTICATED, 'anonymous'];

let web: any;
let eventName: string;
const withoutVersion = () => ({ ...web, metadata: { ...web.metadata, resourceVersion: undefined } });

const ROUTES: Route[] = [
  { name: 'list services in team-a', method: 'GET', path: `${NS}/services`, ok: 200, allowed: READERS },
  { name: 'list services across namespaces', method: 'GET', path: '/api/v1/services', ok: 200, allowed: ['admin'] },
  { name: 'watch services in team-a', method: 'GET', path: `${NS}/services?watch=true`, ok: 200, watch: true, allowed: READERS },
  { name: 'watch services across namespaces', method: 'GET', path: '/api/v1/services?watch=true', ok: 200, watch: true, allowed: ['admin'] },
  { name: 'get a service', method: 'GET', path: `${NS}/services/web`, ok: 200, allowed: READERS },
  { name: 'create a service', method: 'POST', path: `${NS}/services?dryRun=All`, body: () => ({ metadata: { name: 'new' }, spec: { ports: [{ port: 80 }] } }), ok: 201, allowed: ['admin'] },
  { name: 'replace a service', method: 'PUT', path: `${NS}/services/web?dryRun=All`, body: withoutVersion, ok: 200, allowed: ['admin'] },
  { name: 'patch a service', method: 'PATCH', path: `${NS}/services/web?dryRun=All`, body: () => ({ metadata: { labels: { a: 'b' } } }), contentType: MERGE_PATCH, allowed: ['admin'] },
  { name: 'get status', method: 'GET', path: `${NS}/services/web/status`, ok: 200, allowed: READERS },
  { name: 'replace status', method: 'PUT', path: `${NS}/services/web/status`, body: withoutVersion, ok: 200, allowed: ['admin', 'sw'] },
  { name: 'patch status', method: 'PATCH', path: `${NS}/services/web/status`, body: () => ({ status: { loadBalancer: {} } }), contentType: MERGE_PATCH, allowed: ['admin', 'sw'] },
  { name: 'get a service in team-b', method: 'GET', path: '/api/v1/namespaces/team-b/services/other', ok: 200, allowed: ['admin'] },
  { name: 'list services in team-b', method: 'GET', path: '/api/v1/namespaces/team-b/services', ok: 200, allowed: ['admin'] },
  {
    name: 'replace status in team-b',
    method: 'PUT',
    path: '/api/v1/namespaces/team-b/services/other/status',
    body: () => ({ metadata: { name: 'other' }, spec: { ports: [{ port: 80 }] } }),
    allowed: ['admin'],
  },
  { name: 'list events in team-a', method: 'GET', path: `${NS}/events`, ok: 200, allowed: READERS },
  { name: 'list events across namespaces', method: 'GET', path: '/api/v1/events', ok: 200, allowed: ['admin'] },
  { name: 'get an event', method: 'GET', path: `${NS}/events/EVENT`, ok: 200, allowed: READERS },
  { name: 'watch events in team-a', method: 'GET', path: `${NS}/events?watch=1`, ok: 200, watch: true, allowed: READERS },
  { name: 'watch events across namespaces', method: 'GET', path: '/api/v1/events?watch=1', ok: 200, watch: true, allowed: ['admin'] },
  // Any spelling kube-apiserver reads as true is a watch, for the authorizer too.
  { name: 'watch services in team-a with watch=True', method: 'GET', path: `${NS}/services?watch=True`, ok: 200, watch: true, allowed: READERS },
  { name: 'watch services in team-b with a bare watch', method: 'GET', path: '/api/v1/namespaces/team-b/services?watch', ok: 200, watch: true, allowed: ['admin'] },
  // The deprecated watch paths: verb watch from the path (RequestInfo), the name from the path.
  { name: 'watch services in team-a (deprecated path)', method: 'GET', path: '/api/v1/watch/namespaces/team-a/services', ok: 200, watch: true, allowed: READERS },
  { name: 'watch a service (deprecated path)', method: 'GET', path: '/api/v1/watch/namespaces/team-a/services/web', ok: 200, watch: true, allowed: READERS },
  { name: 'watch services across namespaces (deprecated path)', method: 'GET', path: '/api/v1/watch/services', ok: 200, watch: true, allowed: ['admin'] },
  { name: 'watch a service in team-b (deprecated path)', method: 'GET', path: '/api/v1/watch/namespaces/team-b/services/other', ok: 200, watch: true, allowed: ['admin'] },
  { name: 'watch events in team-a (deprecated path)', method: 'GET', path: '/api/v1/watch/namespaces/team-a/events', ok: 200, watch: true, allowed: READERS },
  { name: 'watch events across namespaces (deprecated path)', method: 'GET', path: '/api/v1/watch/events', ok: 200, watch: true, allowed: ['admin'] },
  // Still verb watch for the authorizer; then the route has GET only.
  { name: 'POST to a deprecated watch path', method: 'POST', path: '/api/v1/watch/namespaces/team-a/services', body: () => ({}), ok: 405, allowed: READERS },
  { name: 'discovery /api', method: 'GET', path: '/api', ok: 200, allowed: AUTHENTICATED },
  { name: 'discovery /apis', method: 'GET', path: '/apis', ok: 200, allowed: AUTHENTICATED },
  { name: 'discovery /api/v1', method: 'GET', path: '/api/v1', ok: 200, allowed: AUTHENTICATED },
  { name: 'openapi v2', method: 'GET', path: '/openapi/v2', allowed: AUTHENTICATED },
  { name: 'openapi v3', method: 'GET', path: '/openapi/v3', allowed: AUTHENTICATED },
  { name: 'POST to discovery', method: 'POST', path: '/api', body: () => ({}), ok: 404, allowed: ['admin'] },
  { name: 'discovery of authorization.k8s.io/v1', method: 'GET', path: '/apis/authorization.k8s.io/v1', ok: 200, allowed: AUTHENTICATED },
  // The self reviews: granted to every authenticated user by the default policy file.
  {
    name: 'can-i (SelfSubjectAccessReview)',
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: () => ({ spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } }),
    ok: 201,
    allowed: AUTHENTICATED,
  },
  {
    name: 'can-i --list (SelfSubjectRulesReview)',
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    body: () => ({ spec: { namespace: 'team-a' } }),
    ok: 201,
    allowed: AUTHENTICATED,
  },
  { name: 'whoami (SelfSubjectReview)', method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', body: () => ({}), ok: 201, allowed: AUTHENTICATED },
  // Dry runs, last: a real delete would take the objects the rows above read.
  { name: 'delete a service', method: 'DELETE', path: `${NS}/services/web?dryRun=All`, ok: 200, allowed: ['admin'] },
  { name: 'delete the collection', method: 'DELETE', path: `${NS}/services?dryRun=All`, ok: 200, allowed: ['admin'] },
  { name: 'version', method: 'GET', path: '/version', ok: 200, allowed: EVERYONE },
  { name: 'healthz', method: 'GET', path: '/healthz', ok: 200, allowed: EVERYONE },
  { name: 'livez', method: 'GET', path: '/livez', ok: 200, allowed: EVERYONE },
  { name: 'readyz', method: 'GET', path: '/readyz', ok: 200, allowed: EVERYONE },
  { name: 'metrics (no bootstrap role covers it)', method: 'GET', path: '/metrics', allowed: ['admin'] },
  { name: 'an unknown path', method: 'GET', path: '/no/such/path', ok: 404, allowed: ['admin'] },
];

const WHO: Who[] = ['admin', 'ro', 'sw', 'nobody', 'anonymous'];
const CASES = ROUTES.flatMap((route) => WHO.map((who) => [who, route.method, route.path, route] as const));

describe('authorization', () => {
  let t: AuthzTestServer;
  beforeAll(async () => {
    t = await startAuthzTestServer(
      [
        { name: 'ro', groups: ['viewers'], policy: policyFor('readonly', 'ro', 'team-a') },
        { name: 'sw', groups: ['controllers'], policy: policyFor('status-writer', 'sw', 'team-a') },
        { name: 'nobody', groups: ['devs'] },
      ],
      async (dataDir) => {
        // Issued through issue-credentials itself, before the server reads the policy.
        await issueCredentials({ dataDir, user: 'certro', groups: ['viewers'], policy: 'readonly', namespace: 'team-a', now: () => new Date() });
        await issueCredentials({ dataDir, user: 'tokensw', method: 'token', policy: 'status-writer', namespace: 'team-a', now: () => new Date() });
      },
    );
    const created = await t.client.post(`${NS}/services`, { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    expect(created.status).toBe(201);
    web = created.json;
    expect((await t.client.post('/api/v1/namespaces/team-b/services', { metadata: { name: 'other' }, spec: { ports: [{ port: 80 }] } })).status).toBe(201);
    eventName = (await t.client.get(`${NS}/events`)).json.items[0].metadata.name;
  });
  afterAll(async () => t.stop());

  async function call(who: Who, route: Route): Promise<RawResponse> {
    const client = t.as(who);
    const path = route.path.replace('EVENT', eventName);
    // An allowed watch stays open, so only its status is read; a refused one is a plain Status.
    if (route.watch && route.allowed.includes(who)) {
      const stream = await client.stream(path);
      stream.close();
      return { status: stream.status, headers: stream.response.headers, text: '', bytes: Buffer.alloc(0), json: undefined };
    }
    return client.request(route.method, path, { body: route.body?.(), contentType: route.contentType });
  }

  it.each(CASES)('%s: %s %s', async (who, _method, _path, route) => {
    const res = await call(who, route);
    if (route.allowed.includes(who)) {
      expect([401, 403]).not.toContain(res.status);
      if (route.ok !== undefined) expect({ status: res.status, text: res.text.slice(0, 300) }).toMatchObject({ status: route.ok });
    } else if (who === 'anonymous') {
      expect(res.status).toBe(401);
    } else {
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 });
    }
  });

  // What `kubectl auth can-i` answers must be what the request then gets: for every route and
  // user, a SelfSubjectAccessReview of the request's own attributes says allowed exactly when
  // the request itself is not refused with 403.
  const REVIEW_CASES = CASES.filter(([who]) => who !== 'anonymous');
  it.each(REVIEW_CASES)('can-i agrees with the request: %s: %s %s', async (who, method, _path, route) => {
    const attributes = requestAttributes(method, route.path.replace('EVENT', eventName));
    const spec = attributes.isResourceRequest
      ? {
          resourceAttributes: {
            namespace: attributes.namespace,
            verb: attributes.verb,
            group: attributes.apiGroup,
            version: attributes.apiVersion,
            resource: attributes.resource,
            subresource: attributes.subresource,
            name: attributes.name,
          },
        }
      : { nonResourceAttributes: { path: attributes.path, verb: attributes.verb } };
    const review = await t.as(who).post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec });
    expect(review.status).toBe(201);
    const res = await call(who, route);
    expect({ allowed: review.json.status.allowed, forbidden: res.status === 403 }).toEqual({ allowed: route.allowed.includes(who), forbidden: !route.allowed.includes(who) });
    if (!review.json.status.allowed) expect(review.json.status.reason).toBe('No policy matched.');
  });

  describe('exact 403 bodies', () => {
    const status = (message: string, details: object) => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });

    it.each([
      [
        'ro',
        'PUT',
        `${NS}/services/web/status`,
        'services "web" is forbidden: User "ro" cannot update resource "services/status" in API group "" in the namespace "team-a"',
        { name: 'web', kind: 'services' },
      ],
      [
        'ro',
        'PATCH',
        `${NS}/services/web/status`,
        'services "web" is forbidden: User "ro" cannot patch resource "services/status" in API group "" in the namespace "team-a"',
        { name: 'web', kind: 'services' },
      ],
      ['sw', 'POST', `${NS}/services`, 'services is forbidden: User "sw" cannot create resource "services" in API group "" in the namespace "team-a"', { kind: 'services' }],
      ['sw', 'PUT', `${NS}/services/web`, 'services "web" is forbidden: User "sw" cannot update resource "services" in API group "" in the namespace "team-a"', { name: 'web', kind: 'services' }],
      ['ro', 'GET', '/api/v1/services', 'services is forbidden: User "ro" cannot list resource "services" in API group "" at the cluster scope', { kind: 'services' }],
      [
        'ro',
        'GET',
        '/api/v1/namespaces/team-b/services/other',
        'services "other" is forbidden: User "ro" cannot get resource "services" in API group "" in the namespace "team-b"',
        { name: 'other', kind: 'services' },
      ],
      [
        'nobody',
        'GET',
        `${NS}/services?watch=true&fieldSelector=metadata.name%3Dweb`,
        'services "web" is forbidden: User "nobody" cannot watch resource "services" in API group "" in the namespace "team-a"',
        { name: 'web', kind: 'services' },
      ],
      [
        'nobody',
        'GET',
        '/api/v1/watch/namespaces/team-a/services/web',
        'services "web" is forbidden: User "nobody" cannot watch resource "services" in API group "" in the namespace "team-a"',
        { name: 'web', kind: 'services' },
      ],
      // The verb is in the path, so the selector names nothing.
      [
        'ro',
        'GET',
        '/api/v1/watch/namespaces/team-b/services?fieldSelector=metadata.name%3Dother',
        'services is forbidden: User "ro" cannot watch resource "services" in API group "" in the namespace "team-b"',
        { kind: 'services' },
      ],
      ['ro', 'GET', '/api/v1/watch/services', 'services is forbidden: User "ro" cannot watch resource "services" in API group "" at the cluster scope', { kind: 'services' }],
      [
        'ro',
        'GET',
        '/api/v1/namespaces/team-b/services?watch=True',
        'services is forbidden: User "ro" cannot watch resource "services" in API group "" in the namespace "team-b"',
        { kind: 'services' },
      ],
      ['nobody', 'GET', '/api/v1/watch/namespaces/team-a/events', 'events is forbidden: User "nobody" cannot watch resource "events" in API group "" in the namespace "team-a"', { kind: 'events' }],
      [
        'nobody',
        'POST',
        '/api/v1/watch/namespaces/team-a/services',
        'services is forbidden: User "nobody" cannot watch resource "services" in API group "" in the namespace "team-a"',
        { kind: 'services' },
      ],
      ['nobody', 'DELETE', `${NS}/services`, 'services is forbidden: User "nobody" cannot deletecollection resource "services" in API group "" in the namespace "team-a"', { kind: 'services' }],
      ['nobody', 'GET', '/api/v1/events', 'events is forbidden: User "nobody" cannot list resource "events" in API group "" at the cluster scope', { kind: 'events' }],
      ['nobody', 'GET', '/no/such/path', 'forbidden: User "nobody" cannot get path "/no/such/path"', {}],
      ['nobody', 'POST', '/api', 'forbidden: User "nobody" cannot post path "/api"', {}],
    ])('%s %s %s', async (who, method, path, message, details) => {
      const res = await t.as(who).request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/json\b/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['audit-id']).toBeDefined();
      expect(res.text).toBe(status(message, details));
    });

    it('a YAML client gets the Status in YAML', async () => {
      const res = await t.as('nobody').get(`${NS}/services`, { accept: 'application/yaml' });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe('application/yaml');
      expect(res.text).toContain('reason: Forbidden');
    });
  });

  describe('credentials issued with --policy', () => {
    it('a client certificate user with the readonly preset reads team-a and nothing more', async () => {
      const kubeconfig = parseYaml(readFileSync(`${t.dataDir}/users/certro.kubeconfig`, 'utf8'));
      const user = kubeconfig.users[0].user;
      const client = new HttpsClient(t.server.url, {
        ca: t.ca,
        cert: Buffer.from(user['client-certificate-data'], 'base64').toString(),
        key: Buffer.from(user['client-key-data'], 'base64').toString(),
      });
      expect((await client.get(`${NS}/services/web`)).status).toBe(200);
      const denied = await client.delete(`${NS}/services/web`);
      expect(denied.status).toBe(403);
      expect(denied.json.message).toBe('services "web" is forbidden: User "certro" cannot delete resource "services" in API group "" in the namespace "team-a"');
    });

    it('a token user with the status-writer preset writes status in team-a only', async () => {
      const kubeconfig = parseYaml(readFileSync(`${t.dataDir}/users/tokensw.kubeconfig`, 'utf8'));
      const client = t.client.withToken(kubeconfig.users[0].user.token);
      const current = (await client.get(`${NS}/services/web`)).json;
      const written = await client.put(`${NS}/services/web/status`, { ...current, status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } } });
      expect(written.status).toBe(200);
      expect(written.json.status.loadBalancer.ingress).toEqual([expect.objectContaining({ ip: '203.0.113.9' })]);
      expect((await client.put(`${NS}/services/web`, written.json)).status).toBe(403);
      expect((await client.get('/api/v1/namespaces/team-b/services/other/status')).status).toBe(403);
    });
  });
});
