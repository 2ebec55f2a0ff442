// svctrail's image, built here as a user builds it (the Dockerfile, with BASE a Node 20 image on
// Debian) but from a base made of Debian's packages and this machine's Node, since no registry
// image can be pulled: mmdebstrap makes it (test/deploy/make-image-base, kept in a cache folder by
// the Node version), `podman import` names it.
// Containers run with runc and explicit rlimits: podman's default crun fails on these machines'
// cgroups and rlimits.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildDist, ROOT } from './server-process';

export const RUNTIME = ['--runtime', 'runc'];
/** The rlimits given explicitly, at this process's hard limits (a container may not raise them). */
export const LIMITS = ['--ulimit', `nofile=${hardLimit('n')}:${hardLimit('n')}`, '--ulimit', `nproc=${hardLimit('u')}:${hardLimit('u')}`];

function hardLimit(flag: 'n' | 'u'): string {
  const value = spawnSync('sh', ['-c', `ulimit -H${flag}`], { encoding: 'utf8' }).stdout.trim();
  return value === 'unlimited' || value === '' ? (flag === 'n' ? '65536' : '4096') : value;
}

/** Why the image cannot be built on this machine, or undefined when it can. */
export function missingImageTools(): string | undefined {
  const missing = ['podman', 'mmdebstrap', 'runc'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  return missing.length > 0 ? `${missing.join(', ')} not installed (.ci/run installs them from Debian)` : undefined;
}

export function podman(args: readonly string[], timeoutMs = 600_000): SpawnSyncReturns<string> {
  return spawnSync('podman', args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
}

function check(run: SpawnSyncReturns<string>, what: string): string {
  if (run.status !== 0) throw new Error(`${what} failed (${run.status ?? run.signal}): ${run.stderr || run.stdout}`);
  return run.stdout;
}

/** The base image's tag: Debian bookworm, this machine's Node and npm, nothing else (test/deploy/make-image-base). */
export function ensureTestBase(): string {
  const tag = `localhost/svctrail-test-base:node-${process.version}-${process.arch}`;
  if (podman(['image', 'exists', tag]).status === 0) return tag;
  // Waits for the one .ci/run started in the background, when it is still making it.
  const made = spawnSync(join(ROOT, 'test', 'deploy', 'make-image-base'), [], {
    encoding: 'utf8',
    timeout: 900_000,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  });
  const tarball = check(made, 'mmdebstrap (the test base image)').trim();
  check(podman(['import', tarball, tag]), 'podman import');
  return tag;
}

/**
 * Builds the Dockerfile on a context laid out as the repository after `npm ci && npm run build`:
 * the current sources compiled (as the other server-process suites run them), the UI, the
 * migrations and the installed node_modules (hard links: nothing is copied).
 */
export function buildImage(base: string, tag: string): void {
  const context = mkdtempSync(join(tmpdir(), 'svctrail-image-'));
  try {
    for (const file of ['Dockerfile', '.dockerignore', 'package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(context, file));
    const built = spawnSync(process.execPath, [join(ROOT, 'bin', 'build-ui.js'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    check(built, 'building the UI');
    cpSync(join(ROOT, 'ui', 'dist'), join(context, 'ui', 'dist'), { recursive: true });
    cpSync(join(ROOT, 'migrations'), join(context, 'migrations'), { recursive: true });
    cpSync(buildDist(), join(context, 'dist'), { recursive: true });
    check(spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(context, 'node_modules')], { encoding: 'utf8' }), 'linking node_modules');
    // Pruned here already (the Dockerfile's prune then finds nothing to do): podman hashes a third
    // of the files to find its cached layers. Removing links leaves the project's own install alone.
    check(spawnSync('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: context, encoding: 'utf8', timeout: 120_000 }), 'npm prune');
    check(podman(['build', ...RUNTIME, '--build-arg', `BASE=${base}`, '--tag', tag, context]), 'podman build');
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
