// Reads the event log in position order for the bulk folds (rebuild, verify, replay, import):
// straight from raw rows into RecordedEvents, one statement prepared once, no query builder.
import type Database from 'better-sqlite3';
import { eventDataText } from '../store/packed-event-data';
import { repeatedText } from '../store/sql/event-columns';
import type { LogEvent, LoggedEvent } from '../store/ports/recorded-event';

/** `name` in the source's schema; unqualified by default, so an older store's stand-ins (older-store-stand-ins.ts) are read. */
const inSchema = (source: LogSource, name: string) => (source.schema ? `${source.schema}.${name}` : name);

/** The columns, the repeated texts read from the same schema's repeated_texts. */
const columns = (source: LogSource) => {
  const texts = inSchema(source, 'repeated_texts');
  return `position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at, ${repeatedText('actor_user', '', texts)},
  ${repeatedText('actor_groups', '', texts)}, ${repeatedText('user_agent', '', texts)}, ${repeatedText('field_manager', '', texts)}, request_id, verb, subresource, packed_data`;
};

type Row = [number, number, string, number, string, string, string, string, string, string, string, string, string, string, string, string, Buffer | null];

/** Rows per page when the log is read on the connection that also writes the fold. */
const PAGE = 2000;

/** Where a bulk fold reads the log: a connection (and schema) and an optional last resourceVersion. */
export interface LogSource {
  sqlite: Database.Database;
  /** An attached schema holding the events table (default: the connection's own). */
  schema?: string;
  /** Whole writes up to this resourceVersion only (undefined: the whole log). */
  untilResourceVersion?: number;
}

function recorded(r: Row): LoggedEvent {
  return {
    position: r[0],
    resourceVersion: r[1],
    streamId: r[2],
    streamVersion: r[3],
    namespace: r[4],
    name: r[5],
    event: { type: r[6], data: JSON.parse(eventDataText({ plainData: r[7], packedData: r[16] })) } as LogEvent,
    metadata: {
      recordedAt: r[8],
      user: r[9],
      groups: JSON.parse(r[10]) as string[],
      userAgent: r[11],
      fieldManager: r[12],
      requestId: r[13],
      verb: r[14],
      subresource: r[15],
    },
  };
}

function bounds(source: LogSource): { table: string; where: string; until: number } {
  const until = source.untilResourceVersion ?? Number.MAX_SAFE_INTEGER;
  // position <= R uses the primary key; resource_version <= R drops a write R would cut in half.
  return { table: inSchema(source, 'events'), where: 'position <= @until AND resource_version <= @until', until };
}

/** The number of events readLog yields (for progress). */
export function countLog(source: LogSource): number {
  const { table, until } = bounds(source);
  // resource_version >= position, so this alone bounds both; its index answers without reading the rows.
  return source.sqlite.prepare(`SELECT count(*) FROM ${table} WHERE resource_version <= @until`).pluck().get({ until }) as number;
}

/**
 * Every event of `source` in position order. `writer` is the connection the fold writes on: when
 * it is the source's own, the log is read in pages (a connection cannot write while a cursor of
 * it is open), otherwise through one cursor.
 */
export function* readLog(source: LogSource, writer: Database.Database): Generator<LoggedEvent> {
  const { table, where, until } = bounds(source);
  if (source.sqlite !== writer) {
    const rows = source.sqlite
      .prepare(`SELECT ${columns(source)} FROM ${table} WHERE ${where} ORDER BY position`)
      .raw()
      .iterate({ until });
    for (const row of rows) yield recorded(row as Row);
    return;
  }
  const page = source.sqlite.prepare(`SELECT ${columns(source)} FROM ${table} WHERE position > @after AND ${where} ORDER BY position LIMIT ${PAGE}`).raw();
  for (let after = 0; ;) {
    const rows = page.all({ after, until }) as Row[];
    for (const row of rows) yield recorded(row);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1][0];
  }
}
