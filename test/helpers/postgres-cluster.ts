// Stops and starts the machine's PostgreSQL cluster that serves the tests (the one on the test
// URL's port, as `.ci/start-postgres` finds it), for the test of a database outage. Every caller
// must start it again in a `finally`: other suites share it.
import { execFileSync } from 'node:child_process';
import { POSTGRES_SERVER_URL } from './postgres';

interface Cluster {
  version: string;
  name: string;
  port: string;
}

/** The local cluster listening on the test URL's port, or undefined when the URL is not local. */
export function localCluster(): Cluster | undefined {
  const url = new URL(POSTGRES_SERVER_URL);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname)) return undefined;
  const port = url.port || '5432';
  let listing: string;
  try {
    listing = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  } catch {
    return undefined;
  }
  for (const line of listing.split('\n')) {
    const [version, name, clusterPort] = line.trim().split(/\s+/);
    if (clusterPort === port) return { version, name, port };
  }
  return undefined;
}

function pgCtlCluster(cluster: Cluster, action: 'start' | 'stop'): void {
  const args = [cluster.version, cluster.name, action, ...(action === 'stop' ? ['-m', 'fast'] : [])];
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? 'pg_ctlcluster' : 'sudo', asRoot ? args : ['-n', 'pg_ctlcluster', ...args], { stdio: 'inherit' });
}

export function stopCluster(cluster: Cluster): void {
  pgCtlCluster(cluster, 'stop');
}

/** Starts the cluster unless it runs, and waits until it accepts connections. */
export function ensureClusterRunning(cluster: Cluster): void {
  const ready = () => {
    try {
      execFileSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', cluster.port]);
      return true;
    } catch {
      return false;
    }
  };
  if (!ready()) {
    try {
      pgCtlCluster(cluster, 'start');
    } catch {
      // Already running (started meanwhile): pg_isready decides below.
    }
  }
  for (let i = 0; i < 60 && !ready(); i++) execFileSync('sleep', ['1']);
  if (!ready()) throw new Error(`PostgreSQL ${cluster.version}/${cluster.name} did not come back on port ${cluster.port}`);
}
