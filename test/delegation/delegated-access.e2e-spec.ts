// Delegated authentication and authorization end to end: a real svctrail plays the cluster (its
// token file and ABAC policy are the cluster's users and RBAC; it serves TokenReview and
// SubjectAccessReview), the fault proxy stands in front of it and logs every review, and a second
// svctrail delegates to it: --authentication-kubeconfig names the cluster by a kubeconfig,
// --authorization-kubeconfig by `in-cluster` (KUBERNETES_SERVICE_HOST/PORT and a service account
// folder pointing at the proxy). Cache TTLs are shortened to 2 s by their flags.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authDelegatorPolicy, policyFor } from '../../src/authz/policy-presets';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { type AuthzTestServer, startAuthzTestServer } from '../authz/authz-test-server';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { findKubectl, kubectl } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';
const SARS = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const LB = { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] };
const TTL_MS = 2_000;
// Only the reviews fail: the ConfigMap watch asks the same cluster meanwhile.
const isReview = (path: string) => path.startsWith(SARS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('delegated authentication and authorization (--authentication-kubeconfig, --authorization-kubeconfig)', () => {
  let work: string;
  let cluster: AuthzTestServer;
  let proxy: FaultProxy;
  let svctrail: TestServer;

  /** The reviews the proxy passed to the cluster since `mark`, with their spec. */
  const reviews = (path: string, mark = 0) =>
    proxy.requests
      .slice(mark)
      .filter((r) => r.method === 'POST' && r.path.startsWith(path))
      .map((r) => ({ path: r.path, status: r.status, spec: r.body ? JSON.parse(r.body).spec : undefined }));
  const as = (user: string) => svctrail.client.withToken(cluster.tokenOf(user));

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'svctrail-delegation-'));
    cluster = await startAuthzTestServer([
      { name: 'alice', policy: policyFor('readonly', 'alice', 'team-a') },
      { name: 'bob' },
      // What svctrail's own service account holds in the cluster: system:auth-delegator, and
      // extension-apiserver-authentication-reader in kube-system (deploy/ binds both), without
      // which a delegating server may not start.
      {
        name: 'system:serviceaccount:svctrail:svctrail',
        policy: [
          ...authDelegatorPolicy('system:serviceaccount:svctrail:svctrail'),
          { user: 'system:serviceaccount:svctrail:svctrail', resource: 'configmaps', namespace: 'kube-system', readonly: true },
        ],
      },
    ]);
    proxy = await startFaultProxy({ upstream: cluster.server.url, upstreamCa: cluster.ca });
    const delegatorToken = cluster.tokenOf('system:serviceaccount:svctrail:svctrail');
    const kubeconfig = join(work, 'cluster.kubeconfig');
    writeFileSync(kubeconfig, renderKubeconfig({ server: proxy.url, caPem: proxy.caPem, user: { token: delegatorToken }, userName: 'svctrail', clusterName: 'cluster' }));
    const serviceAccountDir = join(work, 'serviceaccount');
    mkdirSync(serviceAccountDir);
    writeFileSync(join(serviceAccountDir, 'token'), delegatorToken);
    writeFileSync(join(serviceAccountDir, 'ca.crt'), proxy.caPem);
    svctrail = await startTestServer({
      config: {
        authenticationKubeconfig: kubeconfig,
        authorizationKubeconfig: 'in-cluster',
        kubernetesServiceHost: '127.0.0.1',
        kubernetesServicePort: new URL(proxy.url).port,
        serviceAccountDir,
        authenticationTokenWebhookCacheTtl: '2s',
        authorizationWebhookCacheAuthorizedTtl: '2s',
        authorizationWebhookCacheUnauthorizedTtl: '2s',
      },
    });
    for (const namespace of ['team-a', 'team-b']) {
      const res = await svctrail.client.post(`/api/v1/namespaces/${namespace}/services`, { metadata: { name: 'web' }, spec: LB });
      if (res.status !== 201) throw new Error(`create in ${namespace}: ${res.status} ${res.text}`);
    }
  });

  afterAll(async () => {
    await svctrail?.stop();
    await proxy?.close();
    await cluster?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("lets a cluster user read svctrail's history with their own token and RBAC, asking the cluster with its verbs and attributes", async () => {
    const mark = proxy.requests.length;
    const list = await as('alice').get('/api/v1/namespaces/team-a/services');
    expect(list.status).toBe(200);
    expect(list.json.items.map((s: any) => s.metadata.name)).toEqual(['web']);
    const changes = await as('alice').get('/apis/history.svctrail.io/v1alpha1/namespaces/team-a/services/web/changes');
    expect(changes.status).toBe(200);
    const denied = await as('alice').get('/api/v1/namespaces/team-b/services/web');
    expect(denied.status).toBe(403);
    // The cluster's reason is appended (this cluster is svctrail, whose ABAC says why; RBAC says nothing).
    expect(denied.json.message).toBe('services "web" is forbidden: User "alice" cannot get resource "services" in API group "" in the namespace "team-b": No policy matched.');
    const metrics = await as('alice').get('/metrics');
    expect(metrics.status).toBe(403);
    expect(reviews(TOKEN_REVIEWS, mark)).toEqual([{ path: `${TOKEN_REVIEWS}?timeout=10s`, status: 201, spec: { token: cluster.tokenOf('alice') } }]);
    const user = { user: 'alice', groups: ['system:authenticated'], uid: 'uid-alice' };
    expect(reviews(SARS, mark)).toEqual([
      { path: `${SARS}?timeout=10s`, status: 201, spec: { resourceAttributes: { namespace: 'team-a', verb: 'list', version: 'v1', resource: 'services' }, ...user } },
      {
        path: `${SARS}?timeout=10s`,
        status: 201,
        spec: { resourceAttributes: { namespace: 'team-a', verb: 'get', group: 'history.svctrail.io', version: 'v1alpha1', resource: 'services', subresource: 'changes', name: 'web' }, ...user },
      },
      { path: `${SARS}?timeout=10s`, status: 201, spec: { resourceAttributes: { namespace: 'team-b', verb: 'get', version: 'v1', resource: 'services', name: 'web' }, ...user } },
      { path: `${SARS}?timeout=10s`, status: 201, spec: { nonResourceAttributes: { path: '/metrics', verb: 'get' }, ...user } },
    ]);
  });

  it('keeps each answer for its TTL, allowed and denied alike, then asks again', async () => {
    await sleep(TTL_MS + 100);
    const mark = proxy.requests.length;
    for (let i = 0; i < 3; i++) {
      expect((await as('alice').get('/api/v1/namespaces/team-a/services')).status).toBe(200);
      expect((await as('alice').get('/api/v1/namespaces/team-b/services')).status).toBe(403);
    }
    expect(reviews(TOKEN_REVIEWS, mark)).toHaveLength(1);
    expect(reviews(SARS, mark)).toHaveLength(2);
    // An unknown token is kept as unknown for the TTL too.
    for (let i = 0; i < 2; i++) expect((await svctrail.client.withToken('no-such-token').get('/api/v1/services')).status).toBe(401);
    expect(reviews(TOKEN_REVIEWS, mark)).toHaveLength(2);
    await sleep(TTL_MS + 100);
    expect((await as('alice').get('/api/v1/namespaces/team-a/services')).status).toBe(200);
    expect(reviews(TOKEN_REVIEWS, mark)).toHaveLength(3);
    expect(reviews(SARS, mark)).toHaveLength(3);
  });

  it("retries a failing review as k8s.io/apiserver does, answers 500 in kube's words when it keeps failing, never allows and never keeps the failure", async () => {
    await sleep(TTL_MS + 100);
    expect((await as('alice').get('/api/v1/namespaces/team-a/services')).status).toBe(200);
    // Two 500s, then the cluster answers: the third try decides.
    let mark = proxy.requests.length;
    proxy.failRequests(2, 500, isReview);
    expect((await as('alice').get('/api/v1/namespaces/team-a/services/web')).status).toBe(200);
    expect(reviews(SARS, mark).map((r) => r.status)).toEqual([500, 500, 201]);
    // Five 500s: every try fails; the request is a 500 with the review's error, not an allow.
    mark = proxy.requests.length;
    proxy.failRequests(5, 500, isReview);
    const failed = await as('alice').get('/api/v1/namespaces/team-a/services/other');
    expect(failed.status).toBe(500);
    expect(failed.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(failed.text).toBe('Internal Server Error: "/api/v1/namespaces/team-a/services/other": injected failure (500)\n');
    expect(reviews(SARS, mark)).toHaveLength(5);
    // Not kept: the same request asks again, and the cluster's answer stands.
    expect((await as('alice').get('/api/v1/namespaces/team-a/services/other')).status).toBe(404);
    // A cluster that is gone: refused connections are not retried, and the answer is a 500 at once.
    await proxy.stop();
    try {
      const gone = await as('alice').get('/api/v1/namespaces/team-a/services/third');
      expect(gone.status).toBe(500);
      expect(gone.text).toBe(`Internal Server Error: "/api/v1/namespaces/team-a/services/third": Post "${proxy.url}${SARS}?timeout=10s": connect ECONNREFUSED 127.0.0.1:${new URL(proxy.url).port}\n`);
      // An unknown token cannot be reviewed: 401, as upstream's authenticator error.
      expect((await svctrail.client.withToken('another-unknown-token').get('/api/v1/services')).status).toBe(401);
    } finally {
      await proxy.start();
    }
  });

  it('never asks about system:masters, nor about /healthz, /livez and /readyz whatever the verb', async () => {
    const mark = proxy.requests.length;
    // svctrail's own admin: its own token, its own system:masters.
    expect((await svctrail.client.get('/metrics')).status).toBe(200);
    // The cluster's admin: the token is reviewed, the group decides here.
    expect((await svctrail.client.withToken(cluster.adminToken).delete('/api/v1/namespaces/team-b/services/web')).status).toBe(200);
    for (const path of ['/healthz', '/livez', '/readyz']) {
      expect((await as('bob').get(path)).status).toBe(200);
      expect((await as('bob').request('POST', path)).status).not.toBe(403);
    }
    expect(reviews(SARS, mark)).toEqual([]);
    expect(reviews(TOKEN_REVIEWS, mark).map((r) => r.spec.token)).toEqual([cluster.adminToken, cluster.tokenOf('bob')]);
  });

  it("keeps svctrail's own tokens, certificates and policy working beside the cluster's", async () => {
    const mark = proxy.requests.length;
    expect((await svctrail.client.get('/api/v1/namespaces/team-a/services/web')).status).toBe(200);
    // svctrail's own users are not the cluster's: what their policy does not allow is asked, and refused.
    const whoami = await svctrail.client.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });
    expect(whoami.json.status.userInfo.username).toBe('admin');
    expect(reviews(TOKEN_REVIEWS, mark)).toEqual([]);
  });

  it("answers the reviews with the cluster's word: a TokenReview of a cluster token, a SelfSubjectAccessReview asked there, a rules review incomplete", async () => {
    const token = await svctrail.client.post(TOKEN_REVIEWS, { kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', spec: { token: cluster.tokenOf('alice') } });
    expect(token.json.status).toEqual({ authenticated: true, user: { username: 'alice', uid: 'uid-alice', groups: ['system:authenticated'] } });
    const access = await as('alice').post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      spec: { resourceAttributes: { namespace: 'team-a', verb: 'watch', resource: 'services' } },
    });
    expect(access.json.status).toEqual({ allowed: true });
    const rules = await as('alice').post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      spec: { namespace: 'team-a' },
    });
    expect(rules.json.status).toMatchObject({ incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' });
  });

  it("signs a cluster user into the browser UI with their token, the session's reads authorized by the cluster", async () => {
    const origin = svctrail.server.url;
    const signIn = await svctrail.client.post('/ui/api/session', JSON.stringify({ token: cluster.tokenOf('alice') }), {
      token: null,
      contentType: 'application/json',
      headers: { origin, 'sec-fetch-site': 'same-origin' },
    });
    expect(signIn.status).toBe(201);
    expect(signIn.json.user).toEqual({ name: 'alice', groups: ['system:authenticated'] });
    const cookie = /^(__Host-svctrail-session=[^;]+);/.exec(String(signIn.headers['set-cookie']))![1];
    expect((await svctrail.client.get('/api/v1/namespaces/team-a/services', { token: null, headers: { cookie } })).status).toBe(200);
    expect((await svctrail.client.get('/api/v1/namespaces/team-b/services', { token: null, headers: { cookie } })).status).toBe(403);
  });

  const kubectlBinary = findKubectl();
  if (!kubectlBinary) process.stdout.write('SKIPPED kubectl against a delegating svctrail: no kubectl on the PATH\n');
  (kubectlBinary ? it : it.skip)("kubectl with the cluster user's own kubeconfig: get, and auth can-i answered by the cluster's RBAC", async () => {
    const config = join(work, 'alice.kubeconfig');
    writeFileSync(config, renderKubeconfig({ server: svctrail.server.url, caPem: svctrail.ca, user: { token: cluster.tokenOf('alice') }, userName: 'alice' }));
    const run = (...args: string[]) => kubectl(kubectlBinary!, config, [`--cache-dir=${join(work, 'kubectl-cache')}`, ...args]);
    const get = await run('get', 'services', '-n', 'team-a', '-o', 'name');
    expect(get).toMatchObject({ status: 0, stdout: 'service/web\n' });
    expect(await run('auth', 'can-i', 'list', 'services', '-n', 'team-a')).toMatchObject({ status: 0, stdout: 'yes\n' });
    // The union's reason: svctrail's own ABAC's, then the cluster's, one per line.
    expect(await run('auth', 'can-i', 'list', 'services', '-n', 'team-b')).toMatchObject({ status: 1, stdout: 'no - No policy matched.\nNo policy matched.\n' });
    const forbidden = await run('get', 'services', '-n', 'team-b');
    expect(forbidden.status).toBe(1);
    expect(forbidden.stderr).toContain('services is forbidden: User "alice" cannot list resource "services" in API group "" in the namespace "team-b": No policy matched.');
  });
});
