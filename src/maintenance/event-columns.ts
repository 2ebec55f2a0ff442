// The columns of the events table, from the drizzle schema, in schema order. Two views of them:
// - EVENT_KEYS: the log's facts as they mean, under their schema property names, `data` the
//   event's JSON text and the repeated texts as texts: what NDJSON lines hold (event-line.ts),
//   whatever form a store keeps them in.
// - EVENT_TABLE_COLUMNS: the table's columns as stored (an event's data packed or not, its
//   repeated texts by id or not yet: store/packed-event-data.ts, repeated_texts): what a copy
//   between two stores of this version moves as it is (with the repeated texts it refers to).
import { getTableColumns } from 'drizzle-orm';
import { packEventData } from '../store/packed-event-data';
import { events } from '../store/schema';
import type { EventRow, StoredEventRow } from '../store/sql/event-columns';

export type { EventRow, StoredEventRow };
export type EventKey = keyof EventRow;
/** An events row as the table holds it. */
export type EventTableRow = typeof events.$inferSelect;

export const EVENT_TABLE_COLUMNS: readonly { key: keyof EventTableRow; column: string }[] = Object.entries(getTableColumns(events)).map(([key, column]) => ({
  key: key as keyof EventTableRow,
  column: column.name,
}));

const STORED_ONLY = new Set<string>(['packedData', 'actorUserId', 'actorGroupsId', 'userAgentId', 'fieldManagerId']);
export const EVENT_KEYS: readonly EventKey[] = EVENT_TABLE_COLUMNS.flatMap(({ key }): EventKey[] => (STORED_ONLY.has(key) ? [] : key === 'plainData' ? ['data'] : [key as EventKey]));

/** `SELECT` list of every column as stored (column AS key, quoted: PostgreSQL folds a bare alias). */
export const EVENT_TABLE_SELECT = EVENT_TABLE_COLUMNS.map((c) => `${c.column} AS "${c.key}"`).join(', ');

/** `INSERT INTO events (...) VALUES (@key, ...)` for an EventTableRow (SQLite). */
export const EVENT_TABLE_INSERT = `INSERT INTO events (${EVENT_TABLE_COLUMNS.map((c) => c.column).join(', ')}) VALUES (${EVENT_TABLE_COLUMNS.map((c) => `@${c.key}`).join(', ')})`;

/** A fact as this version stores it: its data packed, its repeated texts by id (`textId`: the store's id of a text, added when new). */
export function eventTableRowOf(row: EventRow, textId: (text: string) => number): EventTableRow {
  const { data, actorUser, actorGroups, userAgent, fieldManager, ...rest } = row;
  return {
    ...rest,
    plainData: '',
    packedData: packEventData(data),
    actorUser: '',
    actorGroups: '',
    userAgent: '',
    fieldManager: '',
    actorUserId: textId(actorUser),
    actorGroupsId: textId(actorGroups),
    userAgentId: textId(userAgent),
    fieldManagerId: textId(fieldManager),
  };
}
