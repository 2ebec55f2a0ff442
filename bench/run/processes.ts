// The servers under test: starting and stopping them, their memory, disk writes, WAL and settling.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../real';
import { PG3_WRITE_LEADER, PROFILE, PROFILE_DIR, QUIET_MS, SETTLE_LIMIT_MS } from './options';
import { onServingLine } from './serving-line';

/** floor-full: the floor's raw stack doing svctrail's storage work per write (floor-server.ts --variant storage). */
/** svctrail-pg / svctrail-pg3: svctrail on PostgreSQL, one replica / three replicas on one database. */
export type Target = 'svctrail' | 'floor-full' | 'floor' | 'svctrail-pg' | 'svctrail-pg3';
/** A server's name: a target, or (bench/ab.ts) base / current, svctrail built from two trees side by side. */
export type ServerName = Target | 'base' | 'current';
export const PG_TARGETS = ['svctrail-pg', 'svctrail-pg3'] as const;
type PgTarget = (typeof PG_TARGETS)[number];
export const isPg = (t: ServerName): t is PgTarget => t === 'svctrail-pg' || t === 'svctrail-pg3';

export interface Running {
  target: ServerName;
  child: ChildProcess;
  url: string;
  /** Every replica's URL (svctrail-pg3: three; the load is spread round-robin over them). */
  urls: string[];
  /** The other replicas' processes (svctrail-pg3), stopped with this one. */
  replicas: Running[];
  dataDir: string;
  exited: Promise<void>;
  /** The database a PostgreSQL target serves (its sessions' CPU is counted with the case's). */
  pgUrl?: string;
}

export const children = new Set<ChildProcess>();

/** `root`: the project whose dist/main.js serves (bench/ab.ts starts another tree's build); the floors are always this tree's. */
export function start(target: ServerName, dataDir: string, pgUrl?: string, root = ROOT): Promise<Running> {
  const floor = target === 'floor' || target === 'floor-full';
  const script = floor ? join(ROOT, 'bench', 'dist', 'floor-server.js') : join(root, 'dist', 'main.js');
  const extra =
    target === 'floor'
      ? ['--drop-unused-indexes']
      : target === 'floor-full'
        ? ['--variant', 'storage']
        : isPg(target)
          ? ['--storage', pgUrl!, ...(target === 'svctrail-pg3' && PG3_WRITE_LEADER ? ['--replica-url', 'auto'] : [])]
          : [];
  const nodeFlags = PROFILE && target === 'svctrail' ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
  const child = spawn(process.execPath, [...nodeFlags, script, '--port', '0', '--data-dir', dataDir, ...extra], { cwd: floor ? ROOT : root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => (children.delete(child), resolve())));
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${target} did not start in 300 s: ${err}`)), 300_000);
    onServingLine(child.stdout, (url) => {
      clearTimeout(timer);
      resolve({ target, child, url, urls: [url], replicas: [], dataDir, exited, ...(isPg(target) ? { pgUrl } : {}) });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.length > 20_000) err = err.slice(-10_000);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${target} exited: ${err}`));
    });
  });
}

export async function stop(server: Running): Promise<void> {
  await Promise.all(server.replicas.map(stop));
  server.child.kill('SIGTERM');
  const timeout = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  await server.exited;
  clearTimeout(timeout);
}

export function memory(pid: number): { peakRssBytes: number; rssBytes: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
  return { peakRssBytes: kb('VmHWM'), rssBytes: kb('VmRSS') };
}

/** Bytes the process (all its threads) caused to be written to storage so far. */
export function diskWrites(pid: number): number {
  try {
    return Number(/write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

export const walSize = (dataDir: string) => {
  try {
    return statSync(join(dataDir, 'svctrail.db-wal')).size;
  } catch {
    return 0;
  }
};

/**
 * Waits until the server has written nothing to disk and its WAL file has not changed for
 * QUIET_MS (the checkpoint after the previous case is over), at most SETTLE_LIMIT_MS.
 */
export async function settle(server: Running): Promise<{ settleMs: number; settled: boolean }> {
  const t0 = performance.now();
  let last = `${diskWrites(server.child.pid!)}:${walSize(server.dataDir)}`;
  let quietSince = t0;
  while (performance.now() - t0 < SETTLE_LIMIT_MS) {
    await sleep(250);
    const now = `${diskWrites(server.child.pid!)}:${walSize(server.dataDir)}`;
    if (now !== last) {
      last = now;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= QUIET_MS) {
      return { settleMs: quietSince - t0, settled: true };
    }
  }
  return { settleMs: performance.now() - t0, settled: false };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
