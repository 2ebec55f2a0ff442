// A PostgreSQL cluster of a suite's own, for the tests of a database outage (a restart, a stop):
// initdb into a temporary folder, started on a free port of 127.0.0.1, removed after the suite.
// Stopping it disturbs no other suite, so those suites can run beside the others.
//
// It needs the server binaries of the machine's PostgreSQL (Debian: /usr/lib/postgresql/N/bin).
// Running as root (CI), initdb and the server run as the `postgres` user. When they cannot be
// found or the cluster does not start, the suite fails under CI and is skipped otherwise, with
// the reason printed, like every other PostgreSQL suite (postgres.ts).
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithoutPostgres, type PostgresTestDatabase } from './postgres';

export interface PrivateCluster {
  /** Connection URL of the cluster's `postgres` database (trust authentication on 127.0.0.1). */
  readonly url: string;
  /** Stops the server (fast shutdown: sessions are ended, as a restart ends them). */
  stop(): void;
  /** Starts the server unless it runs, and returns once it accepts connections. */
  start(): void;
  /** Whether it accepts connections now (pg_isready). */
  ready(): boolean;
}

/** The newest installed server's bin folder, or undefined. */
export function serverBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary, as `postgres` when the tests run as root (the server refuses root). */
export function run(bin: string, tool: string, args: string[]): void {
  const command = join(bin, tool);
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

/** run() without blocking the event loop (a proxy of this process may carry the tool's traffic). */
export function runAsync(bin: string, tool: string, args: string[]): Promise<void> {
  const command = join(bin, tool);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => execFile(file, argv, (error, _stdout, stderr) => (error ? reject(new Error(`${tool}: ${error.message} ${stderr}`)) : resolve())));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A temporary folder the server may write (owned by `postgres` when the tests run as root). */
export function serverFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()));
  return dir;
}

interface Started extends PrivateCluster {
  destroy(): void;
}

async function startPrivateCluster(): Promise<Started> {
  const bin = serverBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  const dir = serverFolder('svctrail-pg-cluster-');
  const data = join(dir, 'data');
  const port = await freePort();
  // --no-sync: the cluster lives for one suite; the server itself keeps fsync on, as production does.
  run(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const cluster: Started = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start: () => {
      try {
        run(bin, 'pg_ctl', ['-D', data, 'status']);
        return;
      } catch {
        // Not running: started below.
      }
      run(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    },
    ready: () => {
      try {
        execFileSync(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)], { stdio: 'pipe' });
        return true;
      } catch {
        return false;
      }
    },
    destroy: () => {
      try {
        cluster.stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    cluster.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}

/**
 * `describe` for a suite that stops or restarts PostgreSQL: `database()` is the `postgres`
 * database of a cluster of the suite's own, `cluster()` stops and starts it.
 */
export function describePrivatePostgres(title: string, body: (database: () => PostgresTestDatabase, cluster: () => PrivateCluster) => void): void {
  const bin = serverBinaries();
  if (!bin) {
    describeWithoutPostgres(title, 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin; install Debian’s postgresql', () => body(unavailable, unavailable));
    return;
  }
  describe(title, () => {
    let current: Started | undefined;
    // Before the body's hooks (jest runs hooks in the order they are declared): the cluster is up
    // before the suite's beforeAll and removed after its afterAll stopped the replicas.
    beforeAll(async () => {
      current = await startPrivateCluster();
    }, 120_000);
    const started = (): Started => current ?? unavailable();
    body(
      () => ({ url: started().url, name: 'postgres' }),
      () => started(),
    );
    afterAll(() => current?.destroy(), 60_000);
  });
}

function unavailable(): never {
  throw new Error('the suite’s PostgreSQL cluster is started in beforeAll');
}
