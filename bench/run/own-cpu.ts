// The CPU that the processes serving a case spent over its window, from /proc (Linux): every
// svctrail replica, the PostgreSQL sessions of the bench's database, and the load generator
// itself. Beside the machine's figure (machine-cpu.ts), which also counts whatever else runs on
// the machine: on a shared machine this one still says what a write cost. PostgreSQL's own
// background processes (WAL writer, checkpointer, autovacuum) are not in it.
import { readFileSync } from 'node:fs';
import { Client } from 'pg';

/** The kernel's clock ticks per second (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** utime + stime of each process, ms (0 for one that is gone). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The server processes of the database at `url` serving its clients now (not this query's). */
async function sessionPids(url: string): Promise<number[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

export interface OwnCpu {
  /** Ms of CPU since `start`: the servers, the database's sessions, this process. */
  stop(): { servers: number; database: number; loadGenerator: number };
}

/** Starts counting for `serverPids` and, with `pgUrl`, the sessions its database has now (a pool's sessions outlive a case). */
export async function ownCpu(serverPids: number[], pgUrl?: string): Promise<OwnCpu> {
  const sessions = pgUrl ? await sessionPids(pgUrl) : [];
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpuMs(pid), 0);
  const [servers, database, self] = [sum(serverPids), sum(sessions), process.cpuUsage()];
  return {
    stop: () => {
      const used = process.cpuUsage(self);
      return { servers: sum(serverPids) - servers, database: sum(sessions) - database, loadGenerator: (used.user + used.system) / 1000 };
    },
  };
}
