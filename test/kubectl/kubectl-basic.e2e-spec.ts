// kubectl (the one on the PATH) against the real server with the generated admin kubeconfig:
// get, list, create, replace, replace --subresource=status, delete. Until OpenAPI is served,
// writes use --validate=false.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKubectl, kubectl, kubectlVersion } from '../helpers/kubectl';
import { describeEachBackend, type StorageBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const binary = findKubectl();
if (!binary) process.stdout.write('SKIPPED kubectl e2e: kubectl is not on the PATH\n');
// On both engines (a slice of the kubectl matrix on PostgreSQL: issue 13).
const describeIfKubectl = (title: string, body: (backend: StorageBackend) => void) =>
  binary ? describeEachBackend(title, body) : describe.skip(title, () => body({ engine: 'sqlite', start: () => Promise.reject(new Error('no kubectl')) }));

describeIfKubectl('kubectl with the generated kubeconfig', (backend) => {
  let t: TestServer;
  let work: string;
  const run = (...args: string[]) => kubectl(binary!, t.server.kubeconfigPath, [`--cache-dir=${join(work, 'cache')}`, ...args]);

  beforeAll(async () => {
    t = await backend.start();
    work = mkdtempSync(join(tmpdir(), 'svctrail-kubectl-'));
    process.stdout.write(`kubectl e2e with ${binary} (${kubectlVersion(binary!)})\n`);
  });
  afterAll(async () => {
    await t.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('gets the default/kubernetes Service and lists', async () => {
    const get = await run('get', 'svc', 'kubernetes', '-o', 'jsonpath={.spec.clusterIP}');
    expect(get.stderr).toBe('');
    expect(get.stdout).toBe('10.96.0.1');
    const all = await run('get', 'svc', '-A', '-o', 'name');
    expect(all.stdout.trim().split('\n')).toContain('service/kubernetes');
  });

  it('creates, replaces, replaces status, and deletes', async () => {
    const manifest = join(work, 'svc.json');
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: [{ port: 80 }] } };
    writeFileSync(manifest, JSON.stringify(svc));
    expect((await run('create', '-f', manifest, '--validate=false')).stdout.trim()).toBe('service/web created');

    writeFileSync(manifest, JSON.stringify({ ...svc, metadata: { name: 'web', labels: { tier: 'frontend' } } }));
    expect((await run('replace', '-f', manifest, '--validate=false')).stdout.trim()).toBe('service/web replaced');
    expect((await run('get', 'svc', '-l', 'tier=frontend', '-o', 'name')).stdout.trim()).toBe('service/web');

    const current = JSON.parse((await run('get', 'svc', 'web', '-o', 'json')).stdout);
    current.status = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } };
    writeFileSync(manifest, JSON.stringify(current));
    const status = await run('replace', '--subresource=status', '-f', manifest, '--validate=false');
    expect(status.stderr).toBe('');
    expect(status.stdout.trim()).toBe('service/web replaced');
    expect((await run('get', 'svc', 'web', '-o', 'jsonpath={.status.loadBalancer.ingress[0].ip} {.status.loadBalancer.ingress[0].ipMode}')).stdout).toBe('203.0.113.7 VIP');

    expect((await run('delete', 'svc', 'web')).stdout.trim()).toBe('service "web" deleted');
    const gone = await run('get', 'svc', 'web');
    expect(gone.status).toBe(1);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): services "web" not found');
  });

  it('prints kube-apiserver error messages', async () => {
    const manifest = join(work, 'bad.json');
    writeFileSync(manifest, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: '1web' }, spec: { ports: [{ port: 80 }] } }));
    const res = await run('create', '-f', manifest, '--validate=false');
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('The Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of');
  });

  it('without credentials kubectl is told to log in', async () => {
    const anonymous = join(work, 'anonymous.kubeconfig');
    const config = readFileSync(t.server.kubeconfigPath, 'utf8').replace(/token: .*/, 'token: wrong');
    writeFileSync(anonymous, config);
    const res = await kubectl(binary!, anonymous, [`--cache-dir=${join(work, 'cache2')}`, 'get', 'svc']);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('You must be logged in to the server');
  });
});
