// The history's compaction horizon as the timeline shows it: before it svctrail keeps the facts
// (changes, condition transitions, ingress intervals), not whole objects, so the "as of" view and
// the window's starting state come from the facts there. Pure.
import type { TransitionItem } from './lanes';

export interface Horizon {
  resourceVersion: number;
  /** When its write was recorded, in milliseconds. */
  time: number;
}

/** An item of GET …/compactions, as far as the timeline reads it. */
export interface CompactionItem {
  horizon: { resourceVersion: number; time: string };
}

/** The horizon in force: the newest compaction's (the list is oldest first), or none. */
export function horizonOf(compactions: readonly CompactionItem[]): Horizon | undefined {
  const newest = compactions[compactions.length - 1];
  return newest ? { resourceVersion: newest.horizon.resourceVersion, time: Date.parse(newest.horizon.time) } : undefined;
}

/**
 * Each condition's status at the window's start, from the transitions in the window (oldest
 * first): the status the first transition of each type left. What a window starting below the
 * horizon knows without the object there.
 */
export function conditionsBefore(transitions: readonly TransitionItem[]): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const t of transitions) {
    if (seen.has(t.conditionType)) continue;
    seen.add(t.conditionType);
    if (t.fromStatus !== null) out[t.conditionType] = t.fromStatus;
  }
  return out;
}
