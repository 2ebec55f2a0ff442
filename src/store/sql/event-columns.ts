// The events columns as the history repositories read them: camelCase names, quoted (PostgreSQL
// folds a bare alias to lower case; SQLite takes the quoted one as it is).
import type { events } from '../schema';
import type { EventRow, StoredEventRow } from '../ports/event-row';
import { eventDataText } from '../packed-event-data';

/** An events row read with eventColumns, and what it means. */
export type { EventRow, StoredEventRow };

// The schema's row and the port's are the same type: a column added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesPort: Same<typeof events.$inferSelect, StoredEventRow> = true;
void schemaMatchesPort;

/** The select list of a StoredEventRow. */
export function eventColumns(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `${a}position, ${a}resource_version AS "resourceVersion", ${a}stream_id AS "streamId", ${a}stream_version AS "streamVersion", ${a}namespace,
  ${a}name, ${a}type, ${a}data AS "plainData", ${a}packed_data AS "packedData", ${a}recorded_at AS "recordedAt", ${a}actor_user AS "actorUser",
  ${a}actor_groups AS "actorGroups", ${a}user_agent AS "userAgent", ${a}field_manager AS "fieldManager", ${a}request_id AS "requestId", ${a}verb, ${a}subresource`;
}

/** A stored row as the log means it (its data unpacked), other columns of the row kept. */
export function eventRowOf<R extends StoredEventRow>(stored: R): Omit<R, 'plainData' | 'packedData'> & EventRow {
  const { plainData, packedData, ...rest } = stored;
  return { ...rest, data: eventDataText({ plainData, packedData }) };
}
