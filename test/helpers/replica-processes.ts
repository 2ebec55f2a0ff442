// svctrail replicas as child processes on one PostgreSQL URL, sharing one set of credentials (a
// copy of one data directory each, as the README starts them).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDataDir } from '../../src/tls/data-dir';
import { HttpsClient } from './https-client';
import { type ServerProcess, startServerProcess } from './server-process';

export interface ReplicaProcess {
  name: string;
  process: ServerProcess;
  client: HttpsClient;
}

export interface ReplicaSet {
  replicas: ReplicaProcess[];
  stop(): Promise<void>;
}

/** Starts one replica per name on `storageUrl` (the app built with buildDist() beforehand), each with `args` besides. */
export async function startReplicas(storageUrl: string, names: string[], args: string[] = []): Promise<ReplicaSet> {
  const root = mkdtempSync(join(tmpdir(), 'svctrail-replicas-'));
  await ensureDataDir({ dataDir: join(root, names[0]), now: () => new Date() });
  for (const name of names.slice(1)) cpSync(join(root, names[0]), join(root, name), { recursive: true });
  const ca = readFileSync(join(root, names[0], 'ca.crt'), 'utf8');
  const token = readFileSync(join(root, names[0], 'tokens.csv'), 'utf8').split(',')[0];
  const replicas: ReplicaProcess[] = [];
  const stop = async () => {
    for (const { process } of replicas) {
      if (process.child.exitCode !== null || process.child.signalCode !== null) continue;
      process.child.kill('SIGTERM');
      const timer = setTimeout(() => process.child.kill('SIGKILL'), 10_000);
      await process.exited;
      clearTimeout(timer);
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    // One after the other: the first applies the migrations.
    for (const name of names) {
      const process = await startServerProcess(['--data-dir', join(root, name), '--storage', storageUrl, '--log-level', 'warn', ...args]);
      replicas.push({ name, process, client: new HttpsClient(process.url, { ca, token }) });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { replicas, stop };
}
