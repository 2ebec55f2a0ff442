// `--mirror in-cluster`: svctrail reads the cluster it runs in as client-go's rest.InClusterConfig
// does. A real svctrail plays the cluster (behind the fault proxy, which logs the token each request
// carries) and the kubelet's side is played by hand: KUBERNETES_SERVICE_HOST/PORT naming the proxy,
// a service account folder with token, ca.crt and namespace, the token replaced in place and the
// old one revoked at the cluster (a restart with a tokens.csv that no longer holds it).
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendTokenRecord, formatTokenRecord } from '../../src/auth/token-file';
import { appendPolicyLines, ensurePolicyFile, policyFilePath } from '../../src/authz/policy-file';
import { policyFor } from '../../src/authz/policy-presets';
import { ADMIN_USER, ensureDataDir } from '../../src/tls/data-dir';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { HttpsClient } from '../helpers/https-client';
import { buildDist, removeBuild, startServerProcess } from '../helpers/server-process';
import { startTestServer, type TestServer } from '../helpers/test-server';

const SERVICE_ACCOUNT = 'system:serviceaccount:svctrail:svctrail';
const LB = { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] };

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The kubelet's atomic writer swaps the projected file in one rename; so does this. */
function replaceFile(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

describe('mirror mode with --mirror in-cluster', () => {
  let work: string;
  let sourceDir: string;
  let source: TestServer;
  let sourcePort: number;
  let proxy: FaultProxy;
  let serviceAccountDir: string;
  let mirror: TestServer | undefined;

  /** The cluster's tokens.csv: the admin's line, then the service account's current tokens. */
  const writeClusterTokens = (adminLine: string, tokens: string[]) =>
    writeFileSync(
      join(sourceDir, 'tokens.csv'),
      adminLine + tokens.map((token) => formatTokenRecord({ token, user: SERVICE_ACCOUNT, uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:svctrail'] })).join(''),
    );
  const createAtSource = async (name: string) => {
    const res = await source.client.post('/api/v1/namespaces/a/services', { metadata: { name }, spec: LB });
    if (res.status !== 201) throw new Error(`source create ${name}: ${res.status} ${res.text}`);
  };
  const mirrored = async (name: string) => (await mirror!.client.get(`/api/v1/namespaces/a/services/${name}`)).status === 200;
  /** The tokens of the requests the proxy saw after `index`. */
  const tokensSince = (index: number) => [...new Set(proxy.requests.slice(index).map((r) => r.authorization))];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'svctrail-in-cluster-'));
    sourceDir = join(work, 'cluster');
    await ensureDataDir({ dataDir: sourceDir, now: () => new Date() });
    await ensurePolicyFile(policyFilePath(sourceDir), ADMIN_USER);
    // The mirror's RBAC in a real cluster: list and watch of Services and Events everywhere.
    await appendPolicyLines(policyFilePath(sourceDir), policyFor('readonly', SERVICE_ACCOUNT));
    await appendTokenRecord(join(sourceDir, 'tokens.csv'), { token: 'token-one', user: SERVICE_ACCOUNT, uid: 'sa-uid', groups: [] });
    source = await startTestServer({ dataDir: sourceDir });
    sourcePort = Number(new URL(source.server.url).port);
    await createAtSource('web');
    proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
    serviceAccountDir = join(work, 'serviceaccount');
    mkdirSync(serviceAccountDir);
    writeFileSync(join(serviceAccountDir, 'token'), 'token-one');
    writeFileSync(join(serviceAccountDir, 'ca.crt'), proxy.caPem);
    writeFileSync(join(serviceAccountDir, 'namespace'), 'svctrail');
  });

  afterAll(async () => {
    await mirror?.stop();
    await proxy?.close();
    await source?.server.close();
    removeBuild();
    rmSync(work, { recursive: true, force: true });
  });

  it('records the cluster named by KUBERNETES_SERVICE_HOST/PORT, trusting ca.crt and presenting the service account token', async () => {
    mirror = await startTestServer({
      config: {
        mirror: 'in-cluster',
        kubernetesServiceHost: '127.0.0.1',
        kubernetesServicePort: new URL(proxy.url).port,
        serviceAccountDir,
        // client-go reads the file again after 50 s; a second here.
        tokenFileMaxAgeMs: 1_000,
      },
    });
    await until(() => mirrored('web'), 'the first list');
    expect(tokensSince(0)).toEqual(['Bearer token-one']);
    expect((await mirror.client.get('/readyz')).status).toBe(200);
  });

  it('presents the rotated token once it is a re-read old, without waiting for a 401, and keeps it through an empty or missing file', async () => {
    // The kubelet writes the new token while the old one is still valid.
    const before = proxy.requests.length;
    replaceFile(join(serviceAccountDir, 'token'), 'token-two\n');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    // The cluster revokes the old token: it restarts without it.
    const adminLine = readFileSync(join(sourceDir, 'tokens.csv'), 'utf8').split('\n')[0] + '\n';
    await source.server.close();
    writeClusterTokens(adminLine, ['token-two']);
    source = await startTestServer({ dataDir: sourceDir, config: { port: sourcePort } });
    await createAtSource('after-rotation');
    await until(() => mirrored('after-rotation'), 'a write after the rotation');
    const after = proxy.requests.slice(before);
    // Every request after the re-read carries the new token, and none was refused.
    expect(tokensSince(before)).toEqual(['Bearer token-two']);
    expect(after.filter((r) => r.status === 401)).toEqual([]);

    // A failed or empty read keeps the last token: the mirror goes on recording.
    for (const [what, spoil] of [
      ['empty', () => replaceFile(join(serviceAccountDir, 'token'), '')],
      ['missing', () => rmSync(join(serviceAccountDir, 'token'))],
    ] as const) {
      spoil();
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const mark = proxy.requests.length;
      proxy.closeWatches();
      await createAtSource(`while-${what}`);
      await until(() => mirrored(`while-${what}`), `a write while the token file is ${what}`);
      expect(tokensSince(mark)).toEqual(['Bearer token-two']);
    }
  });

  it('reads the Pod environment itself: a server process given only the variables the kubelet sets', async () => {
    buildDist();
    replaceFile(join(serviceAccountDir, 'token'), 'token-two\n');
    const dataDir = join(work, 'process');
    const started = Date.now();
    const server = await startServerProcess(['--data-dir', dataDir, '--mirror', 'in-cluster', '--service-account-dir', serviceAccountDir, '--log-level', 'debug'], {
      env: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: new URL(proxy.url).port, POD_NAMESPACE: 'svctrail' },
    });
    const proxied = proxy.requests.length;
    const log = () => `; the proxy saw ${JSON.stringify(proxy.requests.slice(proxied).map((r) => `${r.method} ${r.path} ${r.status} ${r.authorization}`))}\n${server.stdout()}\n${server.stderr()}`;
    let recorded: unknown;
    try {
      const admin = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0];
      const client = new HttpsClient(server.url, { ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'), token: admin });
      // Each look bounded too: a request the process never answers must fail here, with its log.
      await until(async () => (await client.get('/api/v1/namespaces/a/services/web', { timeoutMs: 5_000 })).status === 200, 'the process to record the cluster', 20_000);
    } catch (error) {
      recorded = error;
    }
    server.child.kill('SIGTERM');
    const ended = await Promise.race([server.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000))]);
    if (!ended) server.child.kill('SIGKILL');
    if (recorded) {
      throw new Error(`${String(recorded)} (started ${Date.now() - started} ms ago)${log()}`, { cause: recorded });
    }
    if (!ended) throw new Error(`the process did not end within 10 s of SIGTERM${log()}`);
    // Start (bounded at 30 s), the recording (20 s) and the stop (10 s): past jest's default, so
    // that whichever fails reports itself with the process's log rather than jest's timeout.
  }, 90_000);

  it("refuses to start outside a Pod, with client-go's words and the flag that asked", async () => {
    buildDist();
    const dataDir = mkdtempSync(join(tmpdir(), 'svctrail-not-in-cluster-'));
    try {
      const started = startServerProcess(['--data-dir', dataDir, '--mirror', 'in-cluster'], { env: { KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '' } });
      await expect(started).rejects.toThrow(
        'server exited with 1: svctrail: --mirror in-cluster: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined\n',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
