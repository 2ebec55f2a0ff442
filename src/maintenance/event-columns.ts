// The columns of the events table, from the drizzle schema: the property names NDJSON uses and
// the SQL names, in schema order. Every copy of the log moves all of them.
import { getTableColumns } from 'drizzle-orm';
import { events } from '../store/schema';
import type { EventRow } from '../store/sql/event-columns';

export type { EventRow };
export type EventKey = keyof EventRow;

export const EVENT_COLUMNS: readonly { key: EventKey; column: string }[] = Object.entries(getTableColumns(events)).map(([key, column]) => ({
  key: key as EventKey,
  column: column.name,
}));

/** `SELECT` list that yields EventRow objects (column AS key). */
export const EVENT_SELECT = EVENT_COLUMNS.map((c) => `${c.column} AS ${c.key}`).join(', ');

/** `INSERT INTO events (...) VALUES (@key, ...)` for an EventRow. */
export const EVENT_INSERT = `INSERT INTO events (${EVENT_COLUMNS.map((c) => c.column).join(', ')}) VALUES (${EVENT_COLUMNS.map((c) => `@${c.key}`).join(', ')})`;
