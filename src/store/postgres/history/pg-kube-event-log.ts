// KubeEvents on PostgreSQL: the same core/v1 Events as KubeEventLog, read from the log in order.
import type { RecordedEvent } from '../../ports/recorded-event';
import { toRecorded } from '../../event-store';
import { wholeWrites } from '../../kube-event-log';
import type { KubeEventQuery, KubeEvents } from '../../kube-event-log';
import type { events } from '../../schema';
import type { Queryable } from '../postgres-database';
import { EVENT_COLUMNS } from './pg-change-history';
import { PgSqlParams } from './pg-sql-params';

type EventRow = typeof events.$inferSelect;

export class PgKubeEventLog implements KubeEvents {
  constructor(private readonly db: Queryable) {}

  async head(): Promise<number> {
    const { rows } = await this.db.query<{ head: number }>('SELECT coalesce(max(position), 0) AS head FROM events');
    return rows[0].head;
  }

  async page(query: KubeEventQuery): Promise<RecordedEvent[]> {
    const p = new PgSqlParams();
    const where = [`position > ${p.param(query.afterPosition)}`, `position <= ${p.param(query.untilPosition)}`];
    if (query.namespace !== undefined) where.push(`namespace = ${p.param(query.namespace)}`);
    if (query.name !== undefined) where.push(`name = ${p.param(query.name)}`);
    if (query.uid !== undefined) where.push(`stream_id = ${p.param(query.uid)}`);
    const { rows } = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS()} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ${p.param(query.limit)}`,
      p.values,
    );
    return rows.map(toRecorded);
  }

  async at(position: number): Promise<RecordedEvent | undefined> {
    const { rows } = await this.db.query<EventRow>(`SELECT ${EVENT_COLUMNS()} FROM events WHERE position = $1`, [position]);
    return rows[0] ? toRecorded(rows[0]) : undefined;
  }

  async writesAfter(resourceVersion: number, limit: number): Promise<{ events: RecordedEvent[]; complete: boolean }> {
    return wholeWrites(await this.page({ afterPosition: resourceVersion, untilPosition: Number.MAX_SAFE_INTEGER, limit }), limit);
  }
}
