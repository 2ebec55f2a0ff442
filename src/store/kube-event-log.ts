// Reads the event log as core/v1 Events: filtered by namespace and involved object, in log
// order, consistent up to a snapshot position.
import { toRecorded } from './event-store';
import type { RecordedEvent } from './ports/recorded-event';
import { eventColumns, type EventRow } from './sql/event-columns';
import { SqlParams, type SqlReader } from './sql/sql-reader';
import type { KubeEventQuery, KubeEvents } from './ports/kube-events';

const AT = `SELECT ${eventColumns()} FROM events WHERE position = $1`;
const HEAD = 'SELECT coalesce(max(position), 0) AS head FROM events';

/** The event log as core/v1 Events, on either engine's SQL reader. */
export class KubeEventLog implements KubeEvents {
  constructor(private readonly db: SqlReader) {}

  /** The newest position in the log (the current global resourceVersion). */
  async head(): Promise<number> {
    return (await this.db.one<{ head: number }>(HEAD))!.head;
  }

  async page(query: KubeEventQuery): Promise<RecordedEvent[]> {
    const p = new SqlParams();
    const where = [`position > ${p.param(query.afterPosition)}`, `position <= ${p.param(query.untilPosition)}`];
    if (query.namespace !== undefined) where.push(`namespace = ${p.param(query.namespace)}`);
    if (query.name !== undefined) where.push(`name = ${p.param(query.name)}`);
    if (query.uid !== undefined) where.push(`stream_id = ${p.param(query.uid)}`);
    const sql = `SELECT ${eventColumns()} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ${p.param(query.limit)}`;
    return (await this.db.all<EventRow>(sql, p.values)).map(toRecorded);
  }

  async at(position: number): Promise<RecordedEvent | undefined> {
    const row = await this.db.one<EventRow>(AT, [position]);
    return row ? toRecorded(row) : undefined;
  }

  /** Events of whole writes after a resourceVersion (a page never splits a write). */
  async writesAfter(resourceVersion: number, limit: number): Promise<{ events: RecordedEvent[]; complete: boolean }> {
    return wholeWrites(await this.page({ afterPosition: resourceVersion, untilPosition: Number.MAX_SAFE_INTEGER, limit }), limit);
  }
}

/**
 * A page of events read with `limit` cut back to whole writes: a full page may end inside a write,
 * whose events the next page reads again (unless the page holds nothing but that write).
 */
export function wholeWrites(page: RecordedEvent[], limit: number): { events: RecordedEvent[]; complete: boolean } {
  if (page.length < limit) return { events: page, complete: true };
  const last = page[page.length - 1].resourceVersion;
  const whole = page.filter((e) => e.resourceVersion !== last);
  return { events: whole.length ? whole : page, complete: false };
}
