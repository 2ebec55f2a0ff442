// Splits a window into equal time buckets (pure): the bounds the summary endpoint counts over.
export interface TimeBucket {
  start: string;
  end: string;
}

export const MAX_BUCKETS = 2000;
export const DEFAULT_BUCKETS = 100;

/** `count` buckets of equal length covering [since, until]; the last ends exactly at `until`. */
export function timeBuckets(since: string, until: string, count: number): TimeBucket[] {
  const start = Date.parse(since);
  const end = Date.parse(until);
  const width = (end - start) / count;
  const out: TimeBucket[] = [];
  for (let i = 0; i < count; i++) {
    const from = start + Math.round(width * i);
    const to = i === count - 1 ? end : start + Math.round(width * (i + 1));
    out.push({ start: new Date(from).toISOString(), end: new Date(to).toISOString() });
  }
  return out;
}
