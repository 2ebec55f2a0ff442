// How busy the whole machine's CPUs were over a window, from /proc/stat (Linux): a figure is read
// beside it, because on a small machine the load generator, every replica and PostgreSQL share
// the same cores, and a throughput that stopped growing may simply have run out of them.

export interface CpuTimes {
  busy: number;
  total: number;
}

/** The machine's cumulative CPU time (jiffies), or undefined where /proc/stat is not readable. */
export function readCpuTimes(read: () => string): CpuTimes | undefined {
  let line: string;
  try {
    line = read().split('\n', 1)[0];
  } catch {
    return undefined;
  }
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'cpu') return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.slice(1, 9).map(Number);
  const idleAll = idle + (iowait || 0);
  const busy = user + nice + system + (irq || 0) + (softirq || 0) + (steal || 0);
  return Number.isFinite(busy + idleAll) ? { busy, total: busy + idleAll } : undefined;
}

/** The share of all the machine's CPU time that was busy between two readings (0..1). */
export function busyShare(before: CpuTimes | undefined, after: CpuTimes | undefined): number | undefined {
  if (!before || !after) return undefined;
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : undefined;
}
