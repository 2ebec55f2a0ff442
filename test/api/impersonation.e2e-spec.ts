// Impersonation over real HTTPS, as kube-apiserver's WithImpersonation does it: Impersonate-User,
// -Group (each line one group), -Extra-*, -Uid, each allowed by the verb `impersonate`, the
// request then authorized and recorded as the impersonated user; and kubectl's `--as` on
// `auth can-i` and `auth whoami`, which send those headers on a self review.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policyFor } from '../../src/authz/policy-presets';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { type AuthzTestServer, startAuthzTestServer } from '../authz/authz-test-server';
import { findKubectl, kubectl } from '../helpers/kubectl';

const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const whoami = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' };
const LB = { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] };

describe('impersonation (Impersonate-* headers)', () => {
  let t: AuthzTestServer;
  beforeAll(async () => {
    t = await startAuthzTestServer([
      { name: 'sw', policy: policyFor('status-writer', 'sw', 'team-a') },
      // May impersonate any user (ABAC names no verb: "users" is only ever impersonated), nothing else.
      { name: 'imp', policy: [{ user: 'imp', apiGroup: '', resource: 'users', namespace: '*' }] },
      { name: 'nobody' },
    ]);
  });
  afterAll(async () => t.stop());

  it('acts as the impersonated user once allowed: whoami, authorization and the recorded actor are theirs', async () => {
    const as = { 'impersonate-user': 'sw' };
    const me = await t.as('imp').post(WHOAMI, whoami, { headers: as });
    expect(me.json.status.userInfo).toEqual({ username: 'sw', groups: ['system:authenticated'] });
    const created = await t.client.post('/api/v1/namespaces/team-a/services', { metadata: { name: 'web' }, spec: LB });
    expect(created.status).toBe(201);
    const status = await t.as('imp').put('/api/v1/namespaces/team-a/services/web/status', { ...created.json, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } }, { headers: as });
    expect(status.status).toBe(200);
    const changes = (await t.client.get('/apis/history.svctrail.io/v1alpha1/namespaces/team-a/services/web/changes')).json.items;
    expect(changes.at(-1).actor.user).toBe('sw');
    // As sw, imp may not write elsewhere, though imp could impersonate anyone.
    const elsewhere = await t.as('imp').post('/api/v1/namespaces/team-b/services', { metadata: { name: 'x' }, spec: LB }, { headers: as });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.json.message).toBe('services is forbidden: User "sw" cannot create resource "services" in API group "" in the namespace "team-b"');
  });

  it("refuses each impersonation the caller may not do with 403 naming that check's attributes", async () => {
    const user = await t.as('nobody').post(WHOAMI, whoami, { headers: { 'impersonate-user': 'sw' } });
    expect(user.status).toBe(403);
    expect(user.json.message).toBe('users "sw" is forbidden: User "nobody" cannot impersonate resource "users" in API group "" at the cluster scope');
    const group = await t.as('imp').post(WHOAMI, whoami, { headers: { 'impersonate-user': 'sw', 'impersonate-group': 'devs' } });
    expect(group.json.message).toBe('groups "devs" is forbidden: User "imp" cannot impersonate resource "groups" in API group "" at the cluster scope');
    const sa = await t.as('nobody').post(WHOAMI, whoami, { headers: { 'impersonate-user': 'system:serviceaccount:kube-system:default' } });
    expect(sa.json.message).toBe('serviceaccounts "default" is forbidden: User "nobody" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"');
    const extra = await t.as('imp').post(WHOAMI, whoami, { headers: { 'impersonate-user': 'sw', 'impersonate-extra-scopes': 'view' } });
    expect(extra.json.message).toBe(
      'userextras.authentication.k8s.io "view" is forbidden: User "imp" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('gives system:masters every impersonation: a service account with its groups, repeated group lines as separate groups, extras and a uid', async () => {
    const sa = await t.client.post(WHOAMI, whoami, { headers: { 'impersonate-user': 'system:serviceaccount:kube-system:default' } });
    expect(sa.json.status.userInfo).toEqual({
      username: 'system:serviceaccount:kube-system:default',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    });
    const full = await t.client.post(WHOAMI, whoami, {
      headers: { 'impersonate-user': 'alice', 'impersonate-group': ['devs', 'ops, sre'], 'impersonate-extra-scopes': ['view', 'edit'], 'impersonate-uid': '42' },
    });
    expect(full.json.status.userInfo).toEqual({ username: 'alice', uid: '42', groups: ['devs', 'ops, sre', 'system:authenticated'], extra: { scopes: ['view', 'edit'] } });
  });

  it('answers groups without a user with 400', async () => {
    const res = await t.client.post(WHOAMI, whoami, { headers: { 'impersonate-group': 'devs' } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'requested [{Group  devs    }] without impersonating a user' });
  });

  const kubectlBinary = findKubectl();
  if (!kubectlBinary) process.stdout.write('SKIPPED kubectl auth --as: no kubectl on the PATH\n');
  (kubectlBinary ? it : it.skip)('kubectl auth can-i --as and auth whoami --as answer for the impersonated user', async () => {
    const work = mkdtempSync(join(tmpdir(), 'svctrail-as-'));
    try {
      const config = join(work, 'admin.kubeconfig');
      writeFileSync(config, renderKubeconfig({ server: t.server.url, caPem: t.ca, user: { token: t.adminToken }, userName: 'admin' }));
      const run = (...args: string[]) => kubectl(kubectlBinary!, config, [`--cache-dir=${join(work, 'cache')}`, ...args]);
      expect(await run('auth', 'can-i', 'update', 'services', '--subresource=status', '-n', 'team-a', '--as', 'sw')).toMatchObject({ status: 0, stdout: 'yes\n' });
      expect(await run('auth', 'can-i', 'update', 'services', '--subresource=status', '-n', 'team-b', '--as', 'sw')).toMatchObject({ status: 1, stdout: 'no - No policy matched.\n' });
      expect(await run('auth', 'can-i', 'get', '/metrics', '--as', 'sw', '--as-group', 'system:masters')).toMatchObject({ status: 0, stdout: 'yes\n' });
      const who = await run('auth', 'whoami', '--as', 'system:serviceaccount:team-a:lb');
      expect(who.status).toBe(0);
      expect(who.stdout).toMatch(/Username\s+system:serviceaccount:team-a:lb\n/);
      expect(who.stdout).toMatch(/Groups\s+\[system:serviceaccounts system:serviceaccounts:team-a system:authenticated\]\n/);
      // A user who may not impersonate gets kube-apiserver's refusal from kubectl.
      const nobody = join(work, 'nobody.kubeconfig');
      writeFileSync(nobody, renderKubeconfig({ server: t.server.url, caPem: t.ca, user: { token: t.tokenOf('nobody') }, userName: 'nobody' }));
      const refused = await kubectl(kubectlBinary!, nobody, [`--cache-dir=${join(work, 'cache-nobody')}`, 'auth', 'can-i', 'get', 'services', '--as', 'sw']);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('users "sw" is forbidden: User "nobody" cannot impersonate resource "users" in API group "" at the cluster scope');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
