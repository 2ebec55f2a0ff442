// A history window: since/until (RFC 3339) and sinceResourceVersion/untilResourceVersion, all
// inclusive, resolved to a range of resourceVersions within the snapshot. Times become log
// positions through the recorded_at index; a resourceVersion past the log's head is what
// kube-apiserver calls too large (504).
import { BadRequestError, TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import type { ServiceReads } from '../store/ports/service-read-store';

/** What resolving a window reads of the log. */
export type WindowPositions = Pick<ServiceReads, 'firstPositionAtOrAfter' | 'resourceVersionAt'>;
import type { HistoryQuery } from './history-query';

export const WINDOW_PARAMS = ['since', 'until', 'sinceResourceVersion', 'untilResourceVersion'] as const;

export interface ResolvedWindow {
  fromRv: number;
  toRv: number;
  /** True when the window excludes the start of the log. */
  bounded: boolean;
}

export interface WindowInput {
  since?: string;
  until?: string;
  sinceResourceVersion?: number;
  untilResourceVersion?: number;
}

export function readWindow(query: HistoryQuery, names = { since: 'since', until: 'until' }): WindowInput {
  const w: WindowInput = {
    since: query.time(names.since),
    until: query.time(names.until),
    sinceResourceVersion: query.resourceVersion('sinceResourceVersion'),
    untilResourceVersion: query.resourceVersion('untilResourceVersion'),
  };
  if (w.since !== undefined && w.until !== undefined && w.since > w.until) {
    throw new BadRequestError(`invalid window: ${names.since} ${w.since} is after ${names.until} ${w.until}`);
  }
  if (w.sinceResourceVersion !== undefined && w.untilResourceVersion !== undefined && w.sinceResourceVersion > w.untilResourceVersion) {
    throw new BadRequestError(`invalid window: sinceResourceVersion ${w.sinceResourceVersion} is after untilResourceVersion ${w.untilResourceVersion}`);
  }
  return w;
}

/** Checks resourceVersions against the head (before any snapshot is taken from a continue token). */
export function checkNotTooLarge(w: WindowInput, head: number): void {
  for (const rv of [w.sinceResourceVersion, w.untilResourceVersion]) {
    if (rv !== undefined && rv > head) throw new TooLargeResourceVersionError(rv, head);
  }
}

export async function resolveWindow(w: WindowInput, snapshot: number, positions: WindowPositions): Promise<ResolvedWindow> {
  let fromRv = 1;
  let toRv = snapshot;
  if (w.sinceResourceVersion !== undefined) fromRv = Math.max(fromRv, w.sinceResourceVersion);
  if (w.untilResourceVersion !== undefined) toRv = Math.min(toRv, w.untilResourceVersion);
  if (w.since !== undefined) fromRv = Math.max(fromRv, await positions.firstPositionAtOrAfter(w.since));
  if (w.until !== undefined) toRv = Math.min(toRv, await positions.resourceVersionAt(w.until));
  return { fromRv, toRv, bounded: fromRv > 1 };
}

/**
 * The window as states for interval queries (who held what): from the state as of `since` (the
 * last write at or before it) to the last write at or before `until`. An interval [from, to)
 * overlaps it when from <= toRv and (open or to > fromRv).
 */
export async function resolveStateWindow(w: WindowInput, snapshot: number, positions: WindowPositions): Promise<ResolvedWindow> {
  let fromRv = 0;
  let toRv = snapshot;
  if (w.sinceResourceVersion !== undefined) fromRv = Math.max(fromRv, w.sinceResourceVersion);
  if (w.untilResourceVersion !== undefined) toRv = Math.min(toRv, w.untilResourceVersion);
  if (w.since !== undefined) fromRv = Math.max(fromRv, Math.min(snapshot, await positions.resourceVersionAt(w.since)));
  if (w.until !== undefined) toRv = Math.min(toRv, await positions.resourceVersionAt(w.until));
  return { fromRv, toRv, bounded: fromRv > 0 };
}
