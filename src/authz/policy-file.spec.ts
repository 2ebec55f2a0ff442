import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestAttributes } from './request-attributes';
import { authorize } from './request-authorizer';
import { appendPolicyLines, defaultPolicyFileText, ensurePolicyFile, loadPolicyFile, policyFilePath } from './policy-file';
import { policyFor } from './policy-presets';

describe('policy file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svctrail-policy-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a missing file is an empty policy', async () => {
    const path = policyFilePath(dir);
    expect(path).toBe(join(dir, 'policy.jsonl'));
    expect(await loadPolicyFile(path)).toEqual({ source: path, rules: [], warnings: [] });
  });

  it('ensurePolicyFile writes the default once (0600) and it grants the admin user everything', async () => {
    const path = policyFilePath(dir);
    expect(await ensurePolicyFile(path, 'admin')).toBe(true);
    expect(await ensurePolicyFile(path, 'admin')).toBe(false);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const text = await readFile(path, 'utf8');
    expect(text).toBe(defaultPolicyFileText('admin'));
    expect(text.split('\n').filter((line) => line && !line.startsWith('#'))).toEqual([
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"admin","apiGroup":"*","resource":"*","namespace":"*","nonResourcePath":"*"}}',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"authorization.k8s.io","resource":"selfsubjectaccessreviews","namespace":"*"}}',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"authorization.k8s.io","resource":"selfsubjectrulesreviews","namespace":"*"}}',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"authentication.k8s.io","resource":"selfsubjectreviews","namespace":"*"}}',
    ]);
    const policy = await loadPolicyFile(path);
    // Even without system:masters, the line alone allows the admin user.
    const admin = { name: 'admin', groups: ['system:authenticated'] };
    expect(authorize(policy, admin, requestAttributes('DELETE', '/api/v1/namespaces/a/services/web')).allowed).toBe(true);
    expect(authorize(policy, admin, requestAttributes('GET', '/metrics')).allowed).toBe(true);
    // Any authenticated user may create the self reviews, and nothing else.
    const nobody = { name: 'nobody', groups: ['system:authenticated'] };
    expect(authorize(policy, nobody, requestAttributes('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).allowed).toBe(true);
    expect(authorize(policy, nobody, requestAttributes('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews')).allowed).toBe(true);
    expect(authorize(policy, nobody, requestAttributes('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews')).allowed).toBe(true);
    expect(authorize(policy, nobody, requestAttributes('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews')).allowed).toBe(false);
    expect(authorize(policy, nobody, requestAttributes('GET', '/api/v1/namespaces/a/services')).allowed).toBe(false);
  });

  it('appendPolicyLines creates or extends the file, starting on a fresh line', async () => {
    const path = policyFilePath(dir);
    await appendPolicyLines(path, policyFor('readonly', 'ro', 'team-a'));
    await writeFile(path, (await readFile(path, 'utf8')) + '# no newline at end', 'utf8');
    await appendPolicyLines(path, policyFor('status-writer', 'sw', 'team-a'));
    const policy = await loadPolicyFile(path);
    expect(policy.rules.map((r) => [r.line, r.user, r.resource, r.readonly])).toEqual([
      [1, 'ro', '*', true],
      [3, 'sw', '*', true],
      [4, 'sw', 'services/status', false],
      [5, 'sw', 'events', false],
      [6, 'sw', 'events', false],
    ]);
  });

  it('a broken file fails loading with the line', async () => {
    const path = policyFilePath(dir);
    await writeFile(path, '# ok\n{"user":\n');
    await expect(loadPolicyFile(path)).rejects.toThrow(`error reading policy file ${path}, line 2: {"user":: `);
  });
});

describe('policyFor (issue-credentials presets)', () => {
  it('readonly: every resource in the namespace, read-only', () => {
    expect(policyFor('readonly', 'ro', 'team-a')).toEqual([{ user: 'ro', readonly: true, apiGroup: '*', resource: '*', namespace: 'team-a' }]);
    expect(policyFor('readonly', 'ro')).toEqual([{ user: 'ro', readonly: true, apiGroup: '*', resource: '*', namespace: '*' }]);
  });

  it('status-writer: read, plus services/status in the core group and Events in both groups (what a load-balancer controller writes)', () => {
    expect(policyFor('status-writer', 'sw', 'team-a')).toEqual([
      { user: 'sw', readonly: true, apiGroup: '*', resource: '*', namespace: 'team-a' },
      { user: 'sw', apiGroup: '', resource: 'services/status', namespace: 'team-a' },
      { user: 'sw', apiGroup: '', resource: 'events', namespace: 'team-a' },
      { user: 'sw', apiGroup: 'events.k8s.io', resource: 'events', namespace: 'team-a' },
    ]);
  });

  it('admin: everything; a namespace makes no sense there', () => {
    expect(policyFor('admin', 'root')).toEqual([{ user: 'root', apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' }]);
    expect(() => policyFor('admin', 'root', 'a')).toThrow('--namespace does not apply to --policy admin');
  });
});
