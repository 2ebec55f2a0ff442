// Finds the window a Service's timeline opens on when its link names none, from the public
// history API: the first change of the name (the oldest item of its change log), the last (the
// change at the live object's resourceVersion; for a deleted name, the newest change in the last
// bucket of the activity summary that has any), and, when there are more than LAST_CHANGES,
// where the last LAST_CHANGES begin (two rounds of the activity summary, each narrowing to the
// bucket they start in). Five small reads, whatever the length of the history.
import { ApiError, getJson, query, serviceHistoryPath, servicePath } from '../api';
import { fitWindow, lastChangesStart, type Window } from './fit-window';
import type { BucketItem } from './lanes';

const BUCKETS = 100;

interface ChangeList {
  metadata: { continue?: string };
  items: { time: string }[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const orNull = (e: unknown) => (e instanceof ApiError && e.status === 404 ? null : Promise.reject(e));

/** The fitted window, or undefined when the name has no recorded history. `now`: the browser's clock. */
export async function fitServiceWindow(namespace: string, name: string, now: number, signal?: AbortSignal): Promise<Window | undefined> {
  const changes = (params: Record<string, string | number>) => getJson<ChangeList>(`${serviceHistoryPath(namespace, name, 'changes')}${query(params)}`, signal);
  const buckets = async (since: number, until: number) =>
    (await getJson<{ items: BucketItem[] }>(`${serviceHistoryPath(namespace, name, 'activitybuckets')}${query({ since: iso(since), until: iso(until), buckets: BUCKETS })}`, signal)).items;

  const [oldest, live] = await Promise.all([changes({ limit: 1 }), getJson(servicePath(namespace, name), signal).catch(orNull)]);
  if (oldest.items.length === 0) return undefined;
  const first = Date.parse(oldest.items[0].time);

  let last: number | undefined;
  if (live) {
    const latest = await changes({ sinceResourceVersion: live.metadata.resourceVersion, limit: 1 });
    if (latest.items.length) last = Date.parse(latest.items[0].time);
  }
  if (last === undefined) {
    // Deleted: its last change is in the last bucket with any, read whole when it holds a few.
    const active = (await buckets(first, Math.max(now, first + 1000))).filter((b) => b.changes > 0).pop();
    if (!active) return fitWindow(first, first);
    const inside = await changes({ since: active.start, until: active.end, limit: 100 });
    last = inside.items.length && !inside.metadata.continue ? Date.parse(inside.items[inside.items.length - 1].time) : Date.parse(active.end);
  }

  let from = first;
  for (let round = 0; round < 2 && from < last; round++) {
    const start = lastChangesStart(await buckets(from, last + 1));
    if (start === undefined) break;
    from = Math.max(from, start);
  }
  return fitWindow(from, last);
}
