// The events columns as the history repositories read them: camelCase names, quoted (PostgreSQL
// folds a bare alias to lower case; SQLite takes the quoted one as it is).
import type { events } from '../schema';
import type { EventRow, StoredEventRow } from '../ports/event-row';
import { eventDataText } from '../packed-event-data';

/** An events row read with eventColumns, and what it means. */
export type { EventRow, StoredEventRow };

/** The events columns whose texts are stored once, in repeated_texts, each referred to by `<column>_id`. */
export const REPEATED_TEXT_COLUMNS = ['actor_groups', 'user_agent', 'field_manager'] as const;
export type RepeatedTextColumn = (typeof REPEATED_TEXT_COLUMNS)[number];

// The schema's row (its text ids read as texts) and the port's are the same type: a column added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesPort: Same<Omit<typeof events.$inferSelect, 'actorGroupsId' | 'userAgentId' | 'fieldManagerId'>, StoredEventRow> = true;
void schemaMatchesPort;

/**
 * The text of a repeated-text column of an events row (optionally aliased): its id's text, or in a
 * row not converted yet (no id), the column's own.
 */
export function repeatedText(column: RepeatedTextColumn, alias = '', texts = 'repeated_texts'): string {
  const a = alias ? `${alias}.` : '';
  return `coalesce((SELECT rt.text FROM ${texts} rt WHERE rt.id = ${a}${column}_id), ${a}${column})`;
}

/** The select list of a StoredEventRow. */
export function eventColumns(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `${a}position, ${a}resource_version AS "resourceVersion", ${a}stream_id AS "streamId", ${a}stream_version AS "streamVersion", ${a}namespace,
  ${a}name, ${a}type, ${a}data AS "plainData", ${a}packed_data AS "packedData", ${a}recorded_at AS "recordedAt", ${a}actor_user AS "actorUser",
  ${repeatedText('actor_groups', alias)} AS "actorGroups", ${repeatedText('user_agent', alias)} AS "userAgent",
  ${repeatedText('field_manager', alias)} AS "fieldManager", ${a}request_id AS "requestId", ${a}verb, ${a}subresource`;
}

/** A stored row as the log means it (its data unpacked), other columns of the row kept. */
export function eventRowOf<R extends StoredEventRow>(stored: R): Omit<R, 'plainData' | 'packedData'> & EventRow {
  const { plainData, packedData, ...rest } = stored;
  return { ...rest, data: eventDataText({ plainData, packedData }) };
}
