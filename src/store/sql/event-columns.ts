// The events columns as the history repositories read them: camelCase names, quoted (PostgreSQL
// folds a bare alias to lower case; SQLite takes the quoted one as it is).
import type { events } from '../schema';
import type { EventRow } from '../ports/event-row';

/** An events row read with eventColumns. */
export type { EventRow };

// The schema's row and the port's are the same type: a column added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesPort: Same<typeof events.$inferSelect, EventRow> = true;
void schemaMatchesPort;

export function eventColumns(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `${a}position, ${a}resource_version AS "resourceVersion", ${a}stream_id AS "streamId", ${a}stream_version AS "streamVersion", ${a}namespace,
  ${a}name, ${a}type, ${a}data, ${a}recorded_at AS "recordedAt", ${a}actor_user AS "actorUser", ${a}actor_groups AS "actorGroups",
  ${a}user_agent AS "userAgent", ${a}field_manager AS "fieldManager", ${a}request_id AS "requestId", ${a}verb, ${a}subresource`;
}
