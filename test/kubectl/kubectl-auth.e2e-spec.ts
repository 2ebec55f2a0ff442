// `kubectl auth can-i`, `auth can-i --list` and `auth whoami` on every kubectl in the image,
// for users issued by `svctrail issue-credentials`: the system:masters admin, a read-only token
// user and a status-writer client-certificate user for namespace team-a. kubectl ≤ 1.31 sends
// the reviews in JSON, 1.32+ in protobuf; 1.27's whoami knows only authentication.k8s.io/v1beta1.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { type AuthzTestServer, startAuthzTestServer } from '../authz/authz-test-server';
import { kubectl, type KubectlResult, kubectlMatrix, kubectlVersion } from '../helpers/kubectl';

const binaries = kubectlMatrix();
if (!binaries.length) process.stdout.write('SKIPPED kubectl auth: no kubectl on the PATH\n');
const describeIfKubectl = binaries.length ? describe : describe.skip;
const minor = (binary: string) => Number(/^v1\.(\d+)\./.exec(kubectlVersion(binary))?.[1] ?? 0);

/** The --list table as rows of whitespace-separated columns, header included. */
const rows = (table: string) =>
  table
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));

describeIfKubectl('kubectl auth can-i / whoami', () => {
  let t: AuthzTestServer;
  let work: string;
  const kubeconfigs: Record<string, string> = {};

  beforeAll(async () => {
    t = await startAuthzTestServer([], async (dataDir) => {
      const now = () => new Date();
      await issueCredentials({ dataDir, user: 'viewer', method: 'token', policy: 'readonly', namespace: 'team-a', now });
      await issueCredentials({ dataDir, user: 'lb', groups: ['controllers'], policy: 'status-writer', namespace: 'team-a', now });
    });
    work = mkdtempSync(join(tmpdir(), 'svctrail-kubectl-auth-'));
    // The issued kubeconfigs name the default address; point them at this server's port.
    for (const [user, path] of [
      ['admin', t.server.kubeconfigPath],
      ['viewer', join(t.dataDir, 'users', 'viewer.kubeconfig')],
      ['lb', join(t.dataDir, 'users', 'lb.kubeconfig')],
    ]) {
      const config = parseYaml(readFileSync(path, 'utf8'));
      for (const cluster of config.clusters) cluster.cluster.server = t.server.url;
      kubeconfigs[user] = join(work, `${user}.kubeconfig`);
      writeFileSync(kubeconfigs[user], toYaml(config), { mode: 0o600 });
    }
  });
  afterAll(async () => {
    await t.stop();
    rmSync(work, { recursive: true, force: true });
  });

  describe.each(binaries.map((b, i) => [b, i] as const))('%s', (binary, index) => {
    const as = (user: string, ...args: string[]): Promise<KubectlResult> => kubectl(binary, kubeconfigs[user], [`--cache-dir=${join(work, `cache-${index}-${user}`)}`, ...args]);
    const answer = (r: KubectlResult) => ({ status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() });
    const yes = { status: 0, stdout: 'yes', stderr: '' };
    const no = { status: 1, stdout: 'no - No policy matched.', stderr: '' };

    it("can-i: yes and no with exit codes and ABAC's reason, for resources, the status subresource and paths", async () => {
      const cases: [string, string[], object][] = [
        ['admin', ['delete', 'services', '-n', 'team-b'], yes],
        ['admin', ['get', '/metrics'], yes],
        ['viewer', ['get', 'services', '-n', 'team-a'], yes],
        ['viewer', ['watch', 'events', '-n', 'team-a'], yes],
        ['viewer', ['list', 'services', '-n', 'team-b'], no],
        ['viewer', ['update', 'services', '--subresource=status', '-n', 'team-a'], no],
        ['viewer', ['get', '/metrics'], no],
        ['viewer', ['get', '/healthz'], yes],
        ['lb', ['update', 'services', '--subresource=status', '-n', 'team-a'], yes],
        ['lb', ['patch', 'services', '--subresource=status', '-n', 'team-a'], yes],
        ['lb', ['update', 'services', '--subresource=status', '-n', 'team-b'], no],
        ['lb', ['update', 'services', '-n', 'team-a'], no],
        // kubectl reads `services/status` as the Service named "status", which lb may not update.
        ['lb', ['update', 'services/status', '-n', 'team-a'], no],
        // Discovery says cluster-scoped, so kubectl warns about the context's namespace.
        ['lb', ['create', 'selfsubjectaccessreviews.authorization.k8s.io'], { ...yes, stderr: "Warning: resource 'selfsubjectaccessreviews' is not namespace scoped in group 'authorization.k8s.io'" }],
        ['lb', ['post', '/apis'], no],
      ];
      for (const [user, args, expected] of cases) {
        expect({ user, args, ...answer(await as(user, 'auth', 'can-i', ...args)) }).toEqual({ user, args, ...expected });
      }
    });

    it("can-i --list -n team-a: the status writer's rules, bootstrap paths included", async () => {
      const result = await as('lb', 'auth', 'can-i', '--list', '-n', 'team-a');
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
      const table = rows(result.stdout);
      expect(table[0]).toEqual(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
      // kubectl sorts by group, then resource: the core group's Events and services/status first.
      expect(table.slice(1, 8)).toEqual([
        ['events', '[]', '[]', '[*]'],
        ['services/status', '[]', '[]', '[*]'],
        ['selfsubjectreviews.authentication.k8s.io', '[]', '[]', '[*]'],
        ['selfsubjectaccessreviews.authorization.k8s.io', '[]', '[]', '[*]'],
        ['selfsubjectrulesreviews.authorization.k8s.io', '[]', '[]', '[*]'],
        ['events.events.k8s.io', '[]', '[]', '[*]'],
        ['*.*', '[]', '[]', '[get list watch]'],
      ]);
      const urls = table.slice(8).map(([url, names, verbs]) => `${url} ${names} ${verbs}`);
      expect(urls).toEqual(expect.arrayContaining(['[/api] [] [get]', '[/apis/*] [] [get]', '[/openapi/*] [] [get]', '[/healthz] [] [get]', '[/version/] [] [get]']));
      const elsewhere = rows((await as('lb', 'auth', 'can-i', '--list', '-n', 'team-b')).stdout).map((row) => row[0]);
      expect(elsewhere).not.toContain('services/status');
      expect(elsewhere).not.toContain('*.*');
    });

    it('whoami with a token and with a client certificate', async () => {
      const token = answer(await as('viewer', 'auth', 'whoami'));
      expect(token.status).toBe(0);
      expect(rows(token.stdout)).toEqual([
        ['ATTRIBUTE', 'VALUE'],
        ['Username', 'viewer'],
        ['UID', 'viewer'],
        ['Groups', '[system:authenticated]'],
      ]);
      const cert = answer(await as('lb', 'auth', 'whoami'));
      expect(cert.status).toBe(0);
      expect(rows(cert.stdout)).toEqual([
        ['ATTRIBUTE', 'VALUE'],
        ['Username', 'lb'],
        ['Groups', '[controllers system:authenticated]'],
      ]);
      const json = JSON.parse((await as('admin', 'auth', 'whoami', '-o', 'json')).stdout);
      expect(json).toMatchObject({
        kind: 'SelfSubjectReview',
        apiVersion: minor(binary) === 27 ? 'authentication.k8s.io/v1beta1' : 'authentication.k8s.io/v1',
        status: { userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
      });
    });
  });
});
