// The events columns as the history repositories read them: camelCase names, quoted (PostgreSQL
// folds a bare alias to lower case; SQLite takes the quoted one as it is).
import type { events } from '../schema';
import type { EventRow, StoredEventRow } from '../ports/event-row';
import { eventDataText } from '../packed-event-data';

/** An events row read with eventColumns, and what it means. */
export type { EventRow, StoredEventRow };

/** The events columns whose texts are stored once, in repeated_texts, each referred to by `<column>_id`. */
export const REPEATED_TEXT_COLUMNS = ['actor_user', 'actor_groups', 'user_agent', 'field_manager'] as const;
export type RepeatedTextColumn = (typeof REPEATED_TEXT_COLUMNS)[number];

// The schema's row and the port's are the same type: a column added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesPort: Same<typeof events.$inferSelect, StoredEventRow> = true;
void schemaMatchesPort;

/**
 * The text of a repeated-text column of an events row (optionally aliased): its id's text, or in a
 * row not converted yet (no id), the column's own.
 */
export function repeatedText(column: RepeatedTextColumn, alias = '', texts = 'repeated_texts'): string {
  const a = alias ? `${alias}.` : '';
  return `coalesce((SELECT rt.text FROM ${texts} rt WHERE rt.id = ${a}${column}_id), ${a}${column})`;
}

/**
 * The select list of a StoredEventRow, its repeated texts as `text` reads each (and its ids as
 * `ids`); a NULL `data` for eventRowOf to set.
 */
function storedEventColumns(alias: string, text: (column: RepeatedTextColumn) => string, ids: string): string {
  const a = alias ? `${alias}.` : '';
  return `${a}position, ${a}resource_version AS "resourceVersion", ${a}stream_id AS "streamId", ${a}stream_version AS "streamVersion", ${a}namespace,
  ${a}name, ${a}type, ${a}data AS "plainData", ${a}packed_data AS "packedData", ${a}recorded_at AS "recordedAt", ${text('actor_user')} AS "actorUser",
  ${text('actor_groups')} AS "actorGroups", ${text('user_agent')} AS "userAgent", ${text('field_manager')} AS "fieldManager", ${a}request_id AS "requestId",
  ${a}verb, ${a}subresource, ${ids}, NULL AS "data"`;
}

/**
 * The select list of a StoredEventRow: its repeated texts as ids (a RepeatedTextCache resolves
 * them) and, in a row not converted yet, as texts.
 */
export function eventColumns(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return storedEventColumns(
    alias,
    (column) => `${a}${column}`,
    `${a}actor_user_id AS "actorUserId", ${a}actor_groups_id AS "actorGroupsId", ${a}user_agent_id AS "userAgentId", ${a}field_manager_id AS "fieldManagerId"`,
  );
}

/**
 * The select list of a StoredEventRow with its repeated texts resolved in SQL (a subquery each):
 * for the synchronous bulk readers on SQLite (replay's and verify's folds), which keep no cache.
 */
export function resolvedEventColumns(alias = ''): string {
  return storedEventColumns(alias, (column) => repeatedText(column, alias), 'NULL AS "actorUserId", NULL AS "actorGroupsId", NULL AS "userAgentId", NULL AS "fieldManagerId"');
}

/**
 * A stored row (its repeated texts resolved) as the log means it: the same object, its data
 * unpacked into `data` (its stored columns left beside: copying a row without them cost a page of
 * the feed three times what reading it did; the select lists above read a NULL `data` for it, so
 * that setting it changes no object's shape).
 */
export function eventRowOf<R extends StoredEventRow>(stored: R): R & EventRow {
  const row = stored as R & EventRow;
  row.data = eventDataText(stored);
  return row;
}
