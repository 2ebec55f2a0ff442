// The columns of the events table, from the drizzle schema, in schema order. Two views of them:
// - EVENT_COLUMNS: the log's facts as they mean, under their schema property names, `data` the
//   event's JSON text: what NDJSON lines hold (event-line.ts), whatever form a store keeps.
// - STORED_EVENT_COLUMNS: the table's columns as stored (an event's data packed or not,
//   store/packed-event-data.ts): what a copy between two stores of this version moves as it is.
import { getTableColumns } from 'drizzle-orm';
import { packEventData } from '../store/packed-event-data';
import { events } from '../store/schema';
import type { EventRow, StoredEventRow } from '../store/sql/event-columns';

export type { EventRow, StoredEventRow };
export type EventKey = keyof EventRow;
export type StoredEventKey = keyof StoredEventRow;

export const STORED_EVENT_COLUMNS: readonly { key: StoredEventKey; column: string }[] = Object.entries(getTableColumns(events)).map(([key, column]) => ({
  key: key as StoredEventKey,
  column: column.name,
}));

export const EVENT_KEYS: readonly EventKey[] = STORED_EVENT_COLUMNS.flatMap(({ key }): EventKey[] => (key === 'packedData' ? [] : key === 'plainData' ? ['data'] : [key]));

/** `SELECT` list that yields StoredEventRow objects (column AS key, quoted: PostgreSQL folds a bare alias). */
export const STORED_EVENT_SELECT = STORED_EVENT_COLUMNS.map((c) => `${c.column} AS "${c.key}"`).join(', ');

/** `INSERT INTO events (...) VALUES (@key, ...)` for a StoredEventRow (SQLite). */
export const STORED_EVENT_INSERT = `INSERT INTO events (${STORED_EVENT_COLUMNS.map((c) => c.column).join(', ')}) VALUES (${STORED_EVENT_COLUMNS.map((c) => `@${c.key}`).join(', ')})`;

/** A fact as this version stores it: its data packed. */
export function storedEventRowOf(row: EventRow): StoredEventRow {
  const { data, ...rest } = row;
  return { ...rest, plainData: '', packedData: packEventData(data) };
}
