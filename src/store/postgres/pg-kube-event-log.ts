// KubeEventLog's reads on PostgreSQL: the event log as core/v1 Events, filtered by namespace and
// involved object, in log order, up to a snapshot position (the same queries as the SQLite
// KubeEventLog, in PostgreSQL).
//
// MERGE: the history engineer's PostgreSQL KubeEventLog (branch pg-history) supersedes this when
// it lands; it is a separate file so that either can be provided under the KubeEventLog token
// (store.module.ts, `postgresKubeEventLog`).
import type { KubeEventQuery } from '../kube-event-log';
import type { RecordedEvent } from '../recorded-event';
import { EVENT_COLUMNS, EventRow, toRecorded } from './pg-event-store';
import type { Queryable } from './postgres-database';

export class PgKubeEventLog {
  constructor(private readonly db: Queryable) {}

  /** The newest position in the log (the current global resourceVersion). */
  async head(): Promise<number> {
    const { rows } = await this.db.query<{ head: number }>('SELECT coalesce(max(position), 0) AS head FROM events');
    return rows[0].head;
  }

  async page(query: KubeEventQuery): Promise<RecordedEvent[]> {
    const params: unknown[] = [query.afterPosition, query.untilPosition];
    const where = ['position > $1', 'position <= $2'];
    const add = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      params.push(value);
      where.push(`${column} = $${params.length}`);
    };
    add('namespace', query.namespace);
    add('name', query.name);
    add('stream_id', query.uid);
    params.push(query.limit);
    const { rows } = await this.db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT $${params.length}`, params);
    return rows.map(toRecorded);
  }

  async at(position: number): Promise<RecordedEvent | undefined> {
    const { rows } = await this.db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position = $1`, [position]);
    return rows.length ? toRecorded(rows[0]) : undefined;
  }

  /** Events of whole writes after a resourceVersion (a page never splits a write). */
  async writesAfter(resourceVersion: number, limit: number): Promise<{ events: RecordedEvent[]; complete: boolean }> {
    const page = await this.page({ afterPosition: resourceVersion, untilPosition: Number.MAX_SAFE_INTEGER, limit });
    if (page.length < limit) return { events: page, complete: true };
    const last = page[page.length - 1].resourceVersion;
    const whole = page.filter((e) => e.resourceVersion !== last);
    return { events: whole.length ? whole : page, complete: false };
  }
}
