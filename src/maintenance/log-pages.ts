// Reads the log for maintenance on either engine's SQL reader (in the caller's snapshot): its head
// and its whole writes in a window, a page at a time, as export lines want them (EventRow, the
// NDJSON columns) and the folds read them. Pages are seeks of the primary key.
import type { SqlReader } from '../store/sql/sql-reader';
import { RepeatedTextCache } from '../store/repeated-text-cache';
import { eventColumns, eventRowOf } from '../store/sql/event-columns';
import type { EventRow, StoredEventRow } from './event-columns';

// resource_version bounds keep writes whole; position bounds let the primary key drive the scan.
const WINDOW = 'position > $1 AND position <= $3 AND resource_version > $2 AND resource_version <= $3';
const PAGE_SQL = `SELECT ${eventColumns()} FROM events WHERE ${WINDOW} ORDER BY position LIMIT $4`;
const COUNT_SQL = `SELECT count(*) AS n FROM events WHERE ${WINDOW}`;

export const PAGE = 5000;

/** The newest position (0 when the log is empty). */
export async function logHeadOf(db: SqlReader): Promise<number> {
  return (await db.one<{ head: number }>('SELECT coalesce(max(position), 0) AS head FROM events'))!.head;
}

/** How many events the whole writes with resourceVersion in (after, through] hold. */
export async function eventsBetween(db: SqlReader, after: number, through: number): Promise<number> {
  return Number((await db.one<{ n: number | string }>(COUNT_SQL, [after, after, through]))!.n);
}

/** The events of whole writes with resourceVersion in (after, through], in pages, oldest first. */
export async function* eventPages(db: SqlReader, after: number, through: number, page = PAGE): AsyncGenerator<EventRow[]> {
  const texts = new RepeatedTextCache(db);
  for (let from = after; ;) {
    // As they mean: their data unpacked.
    const rows = (await texts.resolve(await db.all<StoredEventRow>(PAGE_SQL, [from, after, through, page]))).map(eventRowOf);
    if (!rows.length) return;
    yield rows;
    if (rows.length < page) return;
    from = rows[rows.length - 1].position;
  }
}
