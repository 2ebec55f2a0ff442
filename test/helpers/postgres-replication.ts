// A highly available PostgreSQL of a suite's own, as CloudNativePG or Patroni run one: a primary
// and a streaming standby (initdb, then pg_basebackup -R), each in a temporary folder on a free
// port of 127.0.0.1, with synchronous replication (synchronous_standby_names) or without. A
// failover is done for real: the old primary is killed (immediate shutdown, as a crash), stopped,
// or brought back read-only at its address, and the standby is promoted (pg_ctl promote). A new
// standby can then be built from the new primary in the old one's place, for the next failover.
//
// Like describePrivatePostgres (postgres-cluster.ts): the server binaries of the machine, run as
// `postgres` when the tests run as root; the suite fails under CI and is skipped otherwise when
// they are missing.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { type MovingAddress, movingAddress } from './moving-address';
import { freePort, run, runAsync, serverBinaries, serverFolder } from './postgres-cluster';
import { describeWithoutPostgres } from './postgres';

export type Replication = 'synchronous' | 'asynchronous';
/** What becomes of the old primary: killed (immediate shutdown, no checkpoint), stopped (fast shutdown), or back at its address, read-only. */
export type OldPrimaryFate = 'killed' | 'stopped' | 'read-only';

export interface ReplicatedServer {
  readonly port: number;
  /** Its own URL (the `postgres` database, trust authentication). */
  readonly url: string;
  running(): boolean;
  /** Whether it accepts connections now (pg_isready). */
  ready(): boolean;
  /** A fast shutdown (its sessions ended, as a restart ends them). */
  stop(): Promise<void>;
  /** Started again as it was (a primary, or a standby) unless it runs. */
  start(): Promise<void>;
}

export interface ReplicatedPostgres {
  /** Both servers: postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/postgres?target_session_attrs=read-write */
  readonly multiHostUrl: string;
  readonly servers: readonly [ReplicatedServer, ReplicatedServer];
  primary(): ReplicatedServer;
  standby(): ReplicatedServer;
  /**
   * The old primary killed, stopped or made read-only, then the standby promoted; resolves when
   * the new primary accepts writes, with the time of the promotion (Date.now()). A stop waits
   * for the standby to receive everything: hold replication only before a kill.
   */
  failover(fate: OldPrimaryFate): Promise<{ promotedAt: number }>;
  /** A fresh standby of the current primary where the old primary was (replacing whatever runs there). */
  rebuildStandby(): Promise<void>;
  /** While held, the WAL the primary sends does not reach the standby (a lagging or cut replication link). */
  holdReplication(held: boolean): void;
}

interface Node extends ReplicatedServer {
  dir: string;
  data: string;
  /** What a standby of this node streams through. */
  link: MovingAddress;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function query<T extends Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const found = await probe();
      if (found !== undefined) return found;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(100);
  }
}

async function startPair(bin: string, replication: Replication): Promise<{ pair: ReplicatedPostgres; destroy(): Promise<void> }> {
  const node = async (): Promise<Node> => {
    const dir = serverFolder('svctrail-pg-ha-');
    const port = await freePort();
    const data = join(dir, 'data');
    const n: Node = {
      dir,
      data,
      port,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      running: () => isRunning(data),
      ready: () => {
        try {
          execFileSync(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)], { stdio: 'pipe' });
          return true;
        } catch {
          return false;
        }
      },
      stop: () => stop(n, 'fast'),
      start: async () => {
        if (!isRunning(data)) await start(n);
      },
      link: await movingAddress(port),
    };
    return n;
  };
  const isRunning = (data: string) => {
    try {
      run(bin, 'pg_ctl', ['-D', data, 'status']);
      return true;
    } catch {
      return false;
    }
  };
  // Every tool runs asynchronously: a standby streams through a link (a proxy) of this process.
  const start = (n: Node, extra: string[] = []) =>
    runAsync(bin, 'pg_ctl', [
      '-D',
      n.data,
      '-o',
      [`-p ${n.port} -k ${n.dir} -c listen_addresses=127.0.0.1`, '-c wal_level=replica -c max_wal_senders=8 -c hot_standby=on -c wal_keep_size=64MB', ...extra].join(' '),
      '-l',
      join(n.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  const stop = async (n: Node, mode: 'fast' | 'immediate') => {
    if (isRunning(n.data)) await runAsync(bin, 'pg_ctl', ['-D', n.data, '-m', mode, '-w', 'stop']);
  };
  const setSynchronous = async (primary: Node, on: boolean) => {
    await query(primary.url, on ? "ALTER SYSTEM SET synchronous_standby_names = '*'" : "ALTER SYSTEM SET synchronous_standby_names = ''");
    await query(primary.url, 'SELECT pg_reload_conf()');
  };
  const attach = async (primary: Node, standby: Node) => {
    rmSync(standby.data, { recursive: true, force: true });
    // -R: standby.signal and primary_conninfo, as CloudNativePG and Patroni clone a replica.
    await runAsync(bin, 'pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.link.port), '-U', 'postgres', '-D', standby.data, '-R', '-X', 'stream', '--no-sync', '-c', 'fast']);
    await start(standby);
    await until('the standby streaming', async () =>
      (await query<{ n: string }>(primary.url, "SELECT count(*)::text AS n FROM pg_stat_replication WHERE state = 'streaming'"))[0].n === '1' ? true : undefined,
    );
    if (replication === 'synchronous') {
      await setSynchronous(primary, true);
      await until('the standby synchronous', async () => ((await query<{ s: string }>(primary.url, 'SELECT sync_state AS s FROM pg_stat_replication'))[0]?.s === 'sync' ? true : undefined));
    }
  };

  const nodes = [await node(), await node()] as [Node, Node];
  let primaryIndex = 0;
  const destroy = async () => {
    for (const n of nodes) {
      try {
        await stop(n, 'immediate');
      } catch {
        // Already stopped.
      }
      await n.link.close();
      rmSync(n.dir, { recursive: true, force: true });
    }
  };
  try {
    // --no-sync: the servers live for one suite; the servers themselves keep fsync on, as in production.
    await runAsync(bin, 'initdb', ['-D', nodes[0].data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    await start(nodes[0]);
    await attach(nodes[0], nodes[1]);
  } catch (error) {
    await destroy();
    throw error;
  }
  const primary = () => nodes[primaryIndex];
  const standby = () => nodes[1 - primaryIndex];
  const pair: ReplicatedPostgres = {
    multiHostUrl: `postgres://postgres@127.0.0.1:${nodes[0].port},127.0.0.1:${nodes[1].port}/postgres?target_session_attrs=read-write`,
    servers: nodes,
    primary,
    standby,
    async failover(fate) {
      const old = primary();
      const next = standby();
      if (fate === 'read-only') {
        await stop(old, 'fast');
        old.link.hold(false);
        // Back at its address, up, and refusing writes: what a fenced or demoted old primary looks like to a client.
        await start(old, ['-c default_transaction_read_only=on']);
      } else await stop(old, fate === 'killed' ? 'immediate' : 'fast');
      // WAL held back on the link dies with the old primary's sessions.
      old.link.hold(false);
      const promotedAt = Date.now();
      await runAsync(bin, 'pg_ctl', ['-D', next.data, '-w', '-t', '60', 'promote']);
      primaryIndex = 1 - primaryIndex;
      // Alone until a standby attaches (as Patroni does outside its strict synchronous mode).
      await setSynchronous(next, false);
      await until('the new primary accepting writes', async () => ((await query<{ r: boolean }>(next.url, 'SELECT pg_is_in_recovery() AS r'))[0].r ? undefined : true));
      return { promotedAt };
    },
    async rebuildStandby() {
      const old = standby();
      await stop(old, 'fast');
      await attach(primary(), old);
    },
    holdReplication(held) {
      primary().link.hold(held);
    },
  };
  return { pair, destroy };
}

/**
 * `describe` for a suite that fails PostgreSQL over: `database()` is the pair of servers (built in
 * beforeAll, before the body's hooks, and removed after its afterAll).
 */
export function describeReplicatedPostgres(title: string, replication: Replication, body: (database: () => ReplicatedPostgres) => void): void {
  const bin = serverBinaries();
  if (!bin) {
    describeWithoutPostgres(title, 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin; install Debian’s postgresql', () =>
      body(() => {
        throw new Error('no PostgreSQL server binaries');
      }),
    );
    return;
  }
  describe(title, () => {
    let current: { pair: ReplicatedPostgres; destroy(): Promise<void> } | undefined;
    beforeAll(async () => {
      current = await startPair(bin, replication);
    }, 120_000);
    body(() => {
      if (!current) throw new Error('the replicated PostgreSQL is started in beforeAll');
      return current.pair;
    });
    afterAll(() => current?.destroy(), 60_000);
  });
}
