// `svctrail issue-credentials --policy readonly|status-writer|admin [--namespace NS]` appends the
// user's lines to the data directory's policy.jsonl.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { defaultPolicyFileText, loadPolicyFile, policyFilePath } from '../../src/authz/policy-file';

// The data directory starts with the admin's line (written by ensureDataDir); presets follow it.
const DEFAULT = defaultPolicyFileText('admin');
const ADMIN_RULE = { user: 'admin', group: '', readonly: false, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' };
// Every authenticated user may create the self reviews (kubectl auth can-i / whoami).
const SELF_REVIEW_RULES = [
  ['authorization.k8s.io', 'selfsubjectaccessreviews'],
  ['authorization.k8s.io', 'selfsubjectrulesreviews'],
  ['authentication.k8s.io', 'selfsubjectreviews'],
].map(([apiGroup, resource]) => ({ user: '', group: 'system:authenticated', readonly: false, apiGroup, resource, namespace: '*', nonResourcePath: '' }));
import { runIssueCredentials } from '../../src/cli/issue-credentials.command';

const now = () => new Date('2025-03-01T12:00:00Z');

describe('issue-credentials --policy', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svctrail-issue-policy-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('without --policy the policy file keeps only the admin line', async () => {
    const issued = await issueCredentials({ dataDir, user: 'alice', now });
    expect(issued.policyLines).toBeUndefined();
    expect(await readFile(policyFilePath(dataDir), 'utf8')).toBe(DEFAULT);
  });

  it('appends the preset lines and warns that a restart is needed', async () => {
    const issued = await issueCredentials({ dataDir, user: 'lb', method: 'token', policy: 'status-writer', namespace: 'team-a', now });
    expect(issued.policyLines).toEqual([
      { user: 'lb', readonly: true, apiGroup: '*', resource: '*', namespace: 'team-a' },
      { user: 'lb', apiGroup: '', resource: 'services/status', namespace: 'team-a' },
      { user: 'lb', apiGroup: '', resource: 'events', namespace: 'team-a' },
      { user: 'lb', apiGroup: 'events.k8s.io', resource: 'events', namespace: 'team-a' },
    ]);
    expect(issued.warnings).toContain(`${policyFilePath(dataDir)} is read at startup: restart svctrail for the new policy to apply`);
    expect(await readFile(policyFilePath(dataDir), 'utf8')).toBe(
      DEFAULT +
        '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"lb","readonly":true,"apiGroup":"*","resource":"*","namespace":"team-a"}}\n' +
        '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"lb","resource":"services/status","namespace":"team-a"}}\n' +
        '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"lb","resource":"events","namespace":"team-a"}}\n' +
        '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"lb","apiGroup":"events.k8s.io","resource":"events","namespace":"team-a"}}\n',
    );
  });

  it('audit-webhook allows only the audit webhook path, and its kubeconfig names that URL', async () => {
    const issued = await issueCredentials({ dataDir, user: 'kube-apiserver-audit', method: 'token', policy: 'audit-webhook', server: 'https://203.0.113.5:6443/', now });
    expect(issued.policyLines).toEqual([{ user: 'kube-apiserver-audit', nonResourcePath: '/audit/v1/events' }]);
    expect(await readFile(issued.kubeconfigPath, 'utf8')).toContain('server: https://203.0.113.5:6443/audit/v1/events');
    await expect(issueCredentials({ dataDir, user: 'x', policy: 'audit-webhook', namespace: 'a', now })).rejects.toThrow(/does not apply to --policy audit-webhook/);
  });

  it('a policy file written before the self reviews existed gets their lines once, before the first preset', async () => {
    const path = policyFilePath(dataDir);
    const old = '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"admin","apiGroup":"*","resource":"*","namespace":"*","nonResourcePath":"*"}}\n';
    await issueCredentials({ dataDir, user: 'first', now });
    await writeFile(path, old, { mode: 0o600 });
    const ro = await issueCredentials({ dataDir, user: 'ro', policy: 'readonly', now });
    expect(ro.warnings).toContain(`${path} did not let users ask kubectl auth can-i / whoami: added the self-review lines for every authenticated user`);
    const sw = await issueCredentials({ dataDir, user: 'sw', policy: 'status-writer', namespace: 'team-a', now });
    expect(sw.warnings.filter((w) => w.includes('self-review'))).toEqual([]);
    const rules = (await loadPolicyFile(path)).rules.map(({ line, ...rule }) => (void line, rule));
    expect(rules.slice(0, 4)).toEqual([ADMIN_RULE, ...SELF_REVIEW_RULES]);
    expect(rules.slice(4).map((r) => r.user)).toEqual(['ro', 'sw', 'sw', 'sw', 'sw']);
  });

  it.each([
    [{ namespace: 'team-a' }, 'a namespace applies only together with a policy'],
    [{ policy: 'admin' as const, namespace: 'team-a' }, '--namespace does not apply to --policy admin'],
    [{ policy: 'readonly' as const, namespace: '' }, 'namespace name must not be empty'],
  ])('rejects %j before writing anything', async (options, message) => {
    await expect(issueCredentials({ dataDir, user: 'bob', now, ...options })).rejects.toThrow(message);
    expect(existsSync(join(dataDir, 'users', 'bob.kubeconfig'))).toBe(false);
    expect(existsSync(policyFilePath(dataDir))).toBe(false);
  });

  describe('CLI', () => {
    it('--policy readonly --namespace team-a', async () => {
      const out: string[] = [];
      const code = await runIssueCredentials(['--user', 'viewer', '--data-dir', dataDir, '--policy', 'readonly', '--namespace', 'team-a'], (line) => out.push(line));
      expect(code).toBe(0);
      expect(out).toContain('appended 1 policy line(s) for "viewer" (readonly in namespace team-a)');
      const policy = await loadPolicyFile(policyFilePath(dataDir));
      expect(policy.rules.map(({ line, ...rule }) => (void line, rule))).toEqual([
        ADMIN_RULE,
        ...SELF_REVIEW_RULES,
        { user: 'viewer', group: '', readonly: true, apiGroup: '*', resource: '*', namespace: 'team-a', nonResourcePath: '' },
      ]);
    });

    it('--policy admin', async () => {
      const out: string[] = [];
      expect(await runIssueCredentials(['--user', 'ops', '--data-dir', dataDir, '--policy', 'admin'], (line) => out.push(line))).toBe(0);
      expect((await loadPolicyFile(policyFilePath(dataDir))).rules.map(({ line, ...rule }) => (void line, rule))).toEqual([
        ADMIN_RULE,
        ...SELF_REVIEW_RULES,
        { user: 'ops', group: '', readonly: false, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' },
      ]);
    });

    it.each([
      [['--policy', 'root'], 'error: --policy must be one of readonly, status-writer, admin, audit-webhook, auth-delegator, not "root"'],
      [['--namespace', 'team-a'], 'error: --namespace needs --policy readonly or --policy status-writer'],
    ])('%j is a usage error', async (args, message) => {
      const out: string[] = [];
      expect(await runIssueCredentials(['--user', 'x', '--data-dir', dataDir, ...args], (line) => out.push(line))).toBe(2);
      expect(out).toEqual([message]);
      expect(existsSync(policyFilePath(dataDir))).toBe(false);
    });

    it('the usage text documents --policy and --namespace', async () => {
      const out: string[] = [];
      await runIssueCredentials(['--help'], (line) => out.push(line));
      expect(out[0]).toContain('[--policy readonly|status-writer|admin|audit-webhook|auth-delegator [--namespace NS]]');
    });
  });
});
