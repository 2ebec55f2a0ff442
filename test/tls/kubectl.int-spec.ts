// Proves that real kubectl (Go's TLS stack) accepts the generated CA, serving SANs, client
// certificate and token kubeconfigs. Skipped, with the reason printed, when kubectl is absent.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { findKubectl } from '../helpers/kubectl';
import { TokenIndex } from '../../src/auth/token-index';
import { ensureDataDir, writeAdminKubeconfig, type DataDirContents } from '../../src/tls/data-dir';
import { startAuthProbeServer, type AuthProbeServer } from './auth-probe-server';

const run = promisify(execFile);
const now = () => new Date();

// Decided before the suite is collected, so that a missing kubectl skips the tests (reported as
// skipped) rather than passing them with no assertion.
const binary = findKubectl();
const describeIfKubectl = binary ? describe : describe.skip;
if (!binary) process.stdout.write('SKIPPED kubectl TLS checks: kubectl is not on the PATH\n');

describeIfKubectl('kubectl against the generated credentials', () => {
  let dir: string;
  let dataDir: string;
  let data: DataDirContents;
  let server: AuthProbeServer;

  const kubectl = (kubeconfig: string, ...args: string[]) =>
    // A private HOME keeps kubectl's discovery cache out of the real one.
    run('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 30_000, env: { ...process.env, HOME: dir, KUBECONFIG: '' } });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svctrail-kubectl-'));
    dataDir = join(dir, 'data');
    data = await ensureDataDir({ dataDir, now });
    // Tokens issued below are appended to tokens.csv; the probe reads the index per test.
    server = await startAuthProbeServer(data, TokenIndex.fromRecords(data.tokens));
  });

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('accepts the CA and SANs and sends the admin token', async () => {
    const kubeconfig = await writeAdminKubeconfig(dataDir, server.url);
    const { stdout } = await kubectl(kubeconfig, 'get', '--raw', '/healthz');
    expect(stdout).toBe('ok');
    const request = server.seen.find((seen) => seen.path === '/healthz');
    expect(request?.authorization).toBe(`Bearer ${data.tokens[0].token}`);
    expect(request?.user).toEqual({ name: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('presents an issued client certificate that maps to CN and O groups', async () => {
    server.seen.length = 0;
    const { kubeconfigPath } = await issueCredentials({ dataDir, user: 'alice', groups: ['system:masters', 'devs'], server: server.url, now });
    const { stdout } = await kubectl(kubeconfigPath, 'get', '--raw', '/healthz');
    expect(stdout).toBe('ok');
    const request = server.seen.find((seen) => seen.path === '/healthz');
    expect(request).toMatchObject({
      authorization: undefined,
      peerAuthorized: true,
      user: { name: 'alice', groups: ['system:masters', 'devs', 'system:authenticated'] },
    });
  });

  it('fails on a token the server does not know', async () => {
    // Written to tokens.csv after the server built its index, so the server rejects it.
    const { kubeconfigPath } = await issueCredentials({ dataDir, user: 'late', method: 'token', server: server.url, now });
    await expect(kubectl(kubeconfigPath, 'get', '--raw', '/healthz')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Unauthorized|must be logged in/),
    });
  });
});
