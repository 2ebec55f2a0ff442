// Finds kubectl binaries (the one on the PATH and the kubectl.1.NN beside it) and runs them with
// a kubeconfig. Tests that need kubectl skip with a printed reason when none is installed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function findKubectl(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

/** The kubectl on the PATH plus every kubectl.1.NN in the folder of the resolved binary. */
export function kubectlMatrix(): string[] {
  const main = findKubectl();
  if (!main) return [];
  const dir = dirname(realpathSync(main));
  const versioned = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /^kubectl\.1\.\d+$/.test(f))
        .sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]))
        .map((f) => join(dir, f))
    : [];
  return [main, ...versioned];
}

export interface KubectlResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Asynchronous on purpose: the server under test may run in this process and must keep serving. */
export function kubectl(
  binary: string,
  kubeconfig: string,
  args: string[],
  input?: string,
  env: Record<string, string> = {},
  /** Called with everything written to stderr so far, each time more arrives. */
  onStderr?: (stderr: string) => void,
): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: process.env.HOME ?? '/tmp', ...env } });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      onStderr?.(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

export function kubectlVersion(binary: string): string {
  try {
    return JSON.parse(execFileSync(binary, ['version', '--client', '-o', 'json'], { encoding: 'utf8' })).clientVersion.gitVersion;
  } catch {
    return 'unknown';
  }
}

/** True once kubectl -v=6 logged the answer to a watch request: it now sees every later change. */
export function watchStarted(stderr: string): boolean {
  return stderr.split('\n').some((line) => line.includes('watch=true') && line.includes('200 OK'));
}
