// Reads the PostgreSQL log in position order, a page at a time, on the caller's connection (and
// so in its transaction's snapshot): as export lines want it (EventRow, the NDJSON columns) and
// as the folds want it (RecordedEvent). Pages are seeks of the primary key.
import type { Queryable } from '../../store/postgres/postgres-database';
import { EVENT_COLUMNS, EventRow } from '../event-columns';

const SELECT = EVENT_COLUMNS.map((c) => `${c.column} AS "${c.key}"`).join(', ');

export const PAGE = 5000;

/** The newest position (0 when the log is empty). */
export async function pgLogHead(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ head: number }>('SELECT coalesce(max(position), 0) AS head FROM events');
  return rows[0].head;
}

/** The events of whole writes with resourceVersion in (after, through], in pages, oldest first. */
export async function* pgEventPages(client: Queryable, after: number, through: number, page = PAGE): AsyncGenerator<EventRow[]> {
  for (let from = after; ; ) {
    // resource_version bounds keep writes whole; position bounds let the primary key drive the scan.
    const { rows } = await client.query<EventRow>(
      `SELECT ${SELECT} FROM events WHERE position > $1 AND position <= $3 AND resource_version > $2 AND resource_version <= $3 ORDER BY position LIMIT ${page}`,
      [from, after, through],
    );
    if (!rows.length) return;
    yield rows;
    if (rows.length < page) return;
    from = rows[rows.length - 1].position;
  }
}
