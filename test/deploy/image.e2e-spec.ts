// The image (issue 44 point 5): built from the Dockerfile with podman, started as the rendered
// StatefulSet starts it — its args and env, its user, a read-only root filesystem with an
// emptyDir /tmp, its data volume, no capabilities — inside a Pod-like network namespace whose
// "cluster" (KUBERNETES_SERVICE_HOST) is a second svctrail, and the service account mount the
// kubelet makes (token, ca.crt, namespace). Then talked to as kubectl talks to it.
// Slow (the base image takes minutes once per Node version; see container-image.ts): skipped with
// the reason when podman or mmdebstrap is missing, failed under CI.
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { buildImage, ensureTestBase, LIMITS, missingImageTools, podman, RUNTIME } from '../helpers/container-image';
import { findKubectl, kubectl } from '../helpers/kubectl';
import { expandedArgs, kustomize, svctrailContainer, findObject } from '../helpers/rendered-deploy';

const missing = missingImageTools() ?? (findKubectl() ? undefined : 'kubectl not installed');
if (missing) {
  if (process.env.CI) throw new Error(`the image suite cannot run: ${missing}`);
  console.warn(`skipping the image suite: ${missing}`);
}
const describeWithPodman = missing ? describe.skip : describe;

const TAG = 'localhost/svctrail:test';
const NAMESPACE = 'svctrail';
const CLUSTER_PORT = 7443;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until<T>(what: string, attempt: () => T | undefined | Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await Promise.resolve()
      .then(attempt)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The status code of an HTTPS GET that verifies nothing (as the kubelet's probes do). */
function probe(port: number, path: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => socket.end(`GET ${path} HTTP/1.1\r\nHost: svctrail\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]) || undefined));
    socket.on('error', () => resolve(undefined));
  });
}

/** A folder the container's user owns, as the kubelet's fsGroup makes a volume writable. */
function volume(prefix: string, uid: number, gid: number): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(folder, 0o755);
  if (process.getuid?.() === 0) chownSync(folder, uid, gid);
  return folder;
}

describeWithPodman('the svctrail image, started as deploy/ starts it', () => {
  const suffix = `${process.pid}`;
  const cluster = `svctrail-test-cluster-${suffix}`;
  const pod = `svctrail-test-${suffix}`;
  const folders: string[] = [];
  let port: number;
  let data: string;
  const timings: Record<string, number> = {};

  const rendered = kustomize('');
  const container = svctrailContainer(rendered);
  const podSpec = (findObject(rendered, 'StatefulSet', 'svctrail') as unknown as { spec: { template: { spec: { securityContext: { runAsUser: number; runAsGroup: number } } } } }).spec.template.spec;
  const { runAsUser, runAsGroup } = podSpec.securityContext;
  const dataMount = '/var/lib/svctrail';

  beforeAll(async () => {
    let started = Date.now();
    const base = ensureTestBase();
    timings.base = Date.now() - started;
    started = Date.now();
    buildImage(base, TAG);
    timings.build = Date.now() - started;
    started = Date.now();
    port = await freePort();

    // The "cluster": a second svctrail in the same network namespace, as kube-apiserver is reached from a Pod.
    const clusterData = volume('svctrail-cluster-', runAsUser, runAsGroup);
    folders.push(clusterData);
    const clusterRun = podman([
      'run',
      ...RUNTIME,
      ...LIMITS,
      '-d',
      '--name',
      cluster,
      '--user',
      `${runAsUser}:${runAsGroup}`,
      '-v',
      `${clusterData}:/data`,
      '-p',
      `127.0.0.1:${port}:6443`,
      TAG,
      '--host=127.0.0.1',
      `--port=${CLUSTER_PORT}`,
      '--data-dir=/data/cluster',
    ]);
    if (clusterRun.status !== 0) throw new Error(`starting the cluster container: ${clusterRun.stderr}`);
    const clusterToken = await until('the cluster svctrail', () =>
      existsSync(join(clusterData, 'cluster', 'kubeconfig')) ? readFileSync(join(clusterData, 'cluster', 'tokens.csv'), 'utf8').split(',')[0] : undefined,
    );

    // What the kubelet mounts for the service account.
    const serviceAccount = mkdtempSync(join(tmpdir(), 'svctrail-sa-'));
    folders.push(serviceAccount);
    chmodSync(serviceAccount, 0o755);
    writeFileSync(join(serviceAccount, 'token'), clusterToken, { mode: 0o644 });
    writeFileSync(join(serviceAccount, 'ca.crt'), readFileSync(join(clusterData, 'cluster', 'ca.crt')), { mode: 0o644 });
    writeFileSync(join(serviceAccount, 'namespace'), NAMESPACE, { mode: 0o644 });

    data = volume('svctrail-data-', runAsUser, runAsGroup);
    folders.push(data);
    const env = container.env.flatMap((variable) => (variable.value !== undefined ? ['-e', `${variable.name}=${variable.value}`] : []));
    const run = podman([
      'run',
      ...RUNTIME,
      ...LIMITS,
      '-d',
      '--name',
      pod,
      '--network',
      `container:${cluster}`,
      '--user',
      `${runAsUser}:${runAsGroup}`,
      // readOnlyRootFilesystem, capabilities drop ALL, allowPrivilegeEscalation false, the emptyDir /tmp.
      '--read-only',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--tmpfs',
      '/tmp:size=64m',
      '-v',
      `${data}:${dataMount}`,
      '-v',
      `${serviceAccount}:/var/run/secrets/kubernetes.io/serviceaccount:ro`,
      // The kubelet's variables and the downward API's POD_NAMESPACE.
      '-e',
      `KUBERNETES_SERVICE_HOST=127.0.0.1`,
      '-e',
      `KUBERNETES_SERVICE_PORT=${CLUSTER_PORT}`,
      '-e',
      `POD_NAMESPACE=${NAMESPACE}`,
      ...env,
      TAG,
      ...expandedArgs(container, { POD_NAMESPACE: NAMESPACE }),
    ]);
    if (run.status !== 0) throw new Error(`starting svctrail: ${run.stderr}`);
    await until('/readyz', async () => ((await probe(port, '/readyz')) === 200 ? true : undefined));
    timings.start = Date.now() - started;
    console.log(`image suite: base ${timings.base} ms (cached after the first run), build ${timings.build} ms, start until ready ${timings.start} ms`);
  }, 1_200_000);

  afterAll(() => {
    if (!missing) {
      for (const name of [pod, cluster]) podman(['rm', '--force', '--time', '5', name]);
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    }
  });

  it('holds only the built server and its production dependencies, and runs it as the non-root user', () => {
    const listing = podman([
      'run',
      ...RUNTIME,
      ...LIMITS,
      '--rm',
      '--entrypoint',
      'sh',
      TAG,
      '-c',
      'id -u; ls -A /opt/svctrail; for p in jest typescript @nestjs/cli vite better-sqlite3 @nestjs/core; do test -d /opt/svctrail/node_modules/$p && echo has $p; done',
    ]);
    expect(listing.status).toBe(0);
    const [uid, ...rest] = listing.stdout.trim().split('\n');
    expect(uid).toBe('10001');
    expect(rest.filter((line) => !line.startsWith('has ') && !line.includes(' ')).sort()).toEqual(['dist', 'migrations', 'node_modules', 'package-lock.json', 'package.json', 'ui']);
    expect(rest.filter((line) => line.startsWith('has '))).toEqual(['has better-sqlite3', 'has @nestjs/core']);
    const top = podman(['top', pod, 'user', 'comm']);
    expect(top.stdout).toMatch(new RegExp(`^\\s*${runAsUser}\\s+node\\s*$`, 'm'));
  });

  it('cannot write its root filesystem; its data lives on the volume', () => {
    expect(podman(['exec', pod, 'sh', '-c', 'touch /opt/svctrail/x']).status).not.toBe(0);
    expect(existsSync(join(data, 'data', 'svctrail.db'))).toBe(true);
  });

  it('answers the probes, and serves a certificate the aggregator verifies for svctrail.<namespace>.svc with the CA in its data folder', async () => {
    expect(await probe(port, '/livez')).toBe(200);
    expect(await probe(port, '/readyz')).toBe(200);
    const ca = readFileSync(join(data, 'data', 'ca.crt'), 'utf8');
    const verified = await new Promise<boolean>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, servername: `svctrail.${NAMESPACE}.svc`, ca, rejectUnauthorized: true }, () => {
        resolve(socket.authorized);
        socket.end();
      });
      socket.on('error', reject);
    });
    expect(verified).toBe(true);
  });

  it('mirrors the cluster it runs in and answers kubectl, the history group included', async () => {
    const kubeconfig = join(folders[0], 'admin.kubeconfig');
    writeFileSync(kubeconfig, readFileSync(join(data, 'data', 'kubeconfig'), 'utf8').replace(/server: https:\/\/[^\s]+/, `server: https://127.0.0.1:${port}`));
    const binary = findKubectl()!;
    const services = await kubectl(binary, kubeconfig, ['get', 'services', '-A', '-o', 'name']);
    expect(services.stderr).toBe('');
    expect(services.stdout.trim()).toBe('service/kubernetes');
    const history = await kubectl(binary, kubeconfig, ['get', '--raw', '/apis/history.svctrail.io/v1alpha1/namespaces/default/changes']);
    expect(history.status).toBe(0);
    const changes = JSON.parse(history.stdout) as { kind: string; items: { verb: string; source?: { via: string } }[] };
    expect(changes.kind).toBe('ServiceChangeList');
    expect(changes.items[0]).toMatchObject({ verb: 'create', source: { via: 'list' } });
  });

  it('stops cleanly on SIGTERM, as the kubelet stops it', () => {
    const stopped = spawnSync('podman', ['stop', '--time', '20', pod], { encoding: 'utf8', timeout: 60_000 });
    expect(stopped.status).toBe(0);
    expect(podman(['inspect', pod, '--format', '{{.State.ExitCode}}']).stdout.trim()).toBe('0');
  });
});
