// The window a timeline opens on when its link names none (pure): the recorded history itself,
// first to last change, padded so neither sits on an edge, and never narrower than a couple of
// minutes (a demo's five seconds of history gets a window of minutes, not hours). When there are
// more changes than a window can show one by one, the span of the last LAST_CHANGES of them.

/** The narrowest fitted window. */
export const MIN_WINDOW_MS = 2 * 60_000;
/** Space left on each side of the history, as a share of its span. */
export const PAD_SHARE = 0.05;
/** A longer history is fitted to the span of its last this many changes. */
export const LAST_CHANGES = 50;

export interface Window {
  from: number;
  to: number;
}

/**
 * The window showing everything between `first` and `last` (epoch ms): padded, widened around its
 * middle to MIN_WINDOW_MS when shorter, and rounded outwards to whole seconds so links stay short.
 */
export function fitWindow(first: number, last: number): Window {
  const [start, end] = first <= last ? [first, last] : [last, first];
  const pad = (end - start) * PAD_SHARE;
  let from = start - pad;
  let to = end + pad;
  if (to - from < MIN_WINDOW_MS) {
    const middle = (start + end) / 2;
    from = middle - MIN_WINDOW_MS / 2;
    to = middle + MIN_WINDOW_MS / 2;
  }
  return { from: Math.floor(from / 1000) * 1000, to: Math.ceil(to / 1000) * 1000 };
}

/** Instants (epoch ms, any order) fitted as their last `keep` span: the Address view's holders. */
export function fitInstants(instants: number[], keep = LAST_CHANGES): Window | undefined {
  if (instants.length === 0) return undefined;
  const sorted = [...instants].sort((a, b) => a - b);
  return fitWindow(sorted[Math.max(0, sorted.length - keep)], sorted[sorted.length - 1]);
}

export interface CountedBucket {
  start: string;
  changes: number;
}

/**
 * Where the last `keep` changes begin, to the precision of the buckets that count them (oldest
 * first): the start of the bucket holding the keep-th change from the end, or undefined when the
 * buckets hold no more than `keep` changes (the whole history fits).
 */
export function lastChangesStart(buckets: CountedBucket[], keep = LAST_CHANGES): number | undefined {
  if (buckets.reduce((n, b) => n + b.changes, 0) <= keep) return undefined;
  let seen = 0;
  for (let i = buckets.length - 1; ; i--) {
    seen += buckets[i].changes;
    if (seen >= keep) return Date.parse(buckets[i].start);
  }
}
