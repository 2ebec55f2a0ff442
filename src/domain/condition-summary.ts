// Per-Service condition summaries from its transitions: time spent in each status, how many
// status transitions, and whether a condition flapped (more than N transitions within some
// window of the given length). Pure: the rows and the window come in, numbers come out.

export interface SummaryTransition {
  conditionType: string;
  fromStatus: string | null;
  toStatus: string | null;
  /** RFC 3339 time of the write. */
  recordedAt: string;
}

export interface SummaryOptions {
  /** Accounting window in epoch ms: from the later of `start` and creation, to the earlier of `end` and deletion. */
  start: number;
  end: number;
  flapThreshold: number;
  flapWindowMs: number;
}

export interface ConditionStatusSummary {
  type: string;
  /** The status at the end of the window; absent when the condition was not set then. */
  status?: string;
  /** Status changes (including the condition appearing or disappearing) within the window. */
  transitions: number;
  /** Seconds spent in each status within the window. */
  secondsInStatus: Record<string, number>;
  lastTransitionTime?: string;
  /** The most status changes within any flapWindow inside the window. */
  maxTransitionsInFlapWindow: number;
  flapping: boolean;
}

/** `rows` ordered by time; every type present in them gets one summary, by type name. */
export function summarizeConditions(rows: readonly SummaryTransition[], options: SummaryOptions): ConditionStatusSummary[] {
  const byType = new Map<string, SummaryTransition[]>();
  for (const row of rows) {
    if (!byType.has(row.conditionType)) byType.set(row.conditionType, []);
    byType.get(row.conditionType)!.push(row);
  }
  return [...byType.keys()].sort().map((type) => summarizeOne(type, byType.get(type)!, options));
}

function summarizeOne(type: string, rows: readonly SummaryTransition[], o: SummaryOptions): ConditionStatusSummary {
  const secondsInStatus: Record<string, number> = {};
  const changeTimes: number[] = [];
  let status: string | null = null;
  let since = o.start;
  let lastTransitionTime: string | undefined;
  const account = (until: number) => {
    const from = Math.max(since, o.start);
    const to = Math.min(until, o.end);
    if (status !== null && to > from) secondsInStatus[status] = ((secondsInStatus[status] ?? 0) * 1000 + (to - from)) / 1000;
  };
  for (const row of rows) {
    const at = Date.parse(row.recordedAt);
    if (at > o.end) break;
    if (row.fromStatus === row.toStatus) continue;
    account(at);
    status = row.toStatus;
    since = at;
    if (at >= o.start) {
      changeTimes.push(at);
      lastTransitionTime = row.recordedAt;
    }
  }
  account(o.end);
  const maxInWindow = maxWithin(changeTimes, o.flapWindowMs);
  return {
    type,
    ...(status !== null ? { status } : {}),
    transitions: changeTimes.length,
    secondsInStatus,
    ...(lastTransitionTime ? { lastTransitionTime } : {}),
    maxTransitionsInFlapWindow: maxInWindow,
    flapping: maxInWindow > o.flapThreshold,
  };
}

/** The most sorted times inside any half-open interval of length `windowMs` (two pointers). */
export function maxWithin(times: readonly number[], windowMs: number): number {
  let best = 0;
  for (let lo = 0, hi = 0; hi < times.length; hi++) {
    while (times[hi] - times[lo] >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
