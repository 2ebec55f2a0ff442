// `svctrail import --storage postgres://…`: an empty PostgreSQL database filled from NDJSON events
// (event-line.ts), checked line by line as the SQLite import checks them, positions,
// resourceVersions and recorded times kept. The projections are folded from the same events as
// they stream by (ProjectionRowFold: the live projections' rules) and inserted in bulk. All of it
// is one transaction under the append lock: a refused or failed import leaves the database empty,
// and a server started on it meanwhile waits instead of writing in between. A mirror's facts
// after the events (mirror-fact-line.ts) are inserted as they are, and checked as SQLite's import checks them.
import { redactedUrl } from '../../store/postgres/postgres-database';
import { lockAppends } from '../../store/postgres/pg-event-store';
import { inTransaction, type Queryable } from '../../store/postgres/postgres-database';
import { EVENT_TABLE_COLUMNS, eventTableRowOf, type EventRow } from '../event-columns';
import type { ImportReport } from '../event-importer';
import { LogShapeChecker } from '../event-importer';
import { decodeCompactionLine, importedHorizon, isCompactionLine } from '../compaction-line';
import { decodeEventLine, EventLineError } from '../event-line';
import { isMirrorFactLine, MirrorFactOrder } from '../mirror-fact-line';
import { MIRROR_FACT_TABLE_NAMES, MIRROR_FACT_TABLES, type MirrorFactTable } from '../mirror-facts';
import { refuseDanglingFacts } from '../mirror-facts-verification';
import { PgSqlReader } from '../../store/postgres/pg-sql-reader';
import { compactionInserts } from '../../store/history-compaction';
import type { Compaction } from '../../store/ports/history-compaction';
import { pgFoldToHorizon } from './pg-store-horizon';
import { MaintenanceError } from '../maintenance-error';
import { openPgStore } from './pg-store-connection';
import type { Progress } from '../progress';
import { type ColumnType, PROJECTION_TABLES, ProjectionRowFold, type Row } from '../projection-row-fold';
import { toRecorded } from '../../store/event-store';
import { foldOptions, PgFoldWriter } from './pg-projection-fold';
import { insertRows } from './pg-row-writer';

export interface PgImportOptions {
  url: string;
  lines: AsyncIterable<string>;
  inputBytes?: number;
  progress: Progress;
}

const INTEGER_KEYS = new Set<string>(['position', 'resourceVersion', 'streamVersion', 'actorUserId', 'actorGroupsId', 'userAgentId', 'fieldManagerId']);
const EVENT_TYPES: [string, ColumnType][] = EVENT_TABLE_COLUMNS.map((c) => [c.column, INTEGER_KEYS.has(c.key) ? 'bigint' : c.key === 'packedData' ? 'bytea' : 'text']);
const BATCH = 5000;

/** Refuses a database holding any event, projection row or mirror's fact. */
export async function assertEmptyStore(client: Queryable, url: string): Promise<void> {
  const tables = ['events', ...PROJECTION_TABLES, ...MIRROR_FACT_TABLE_NAMES];
  const { rows } = await client.query<{ table: string }>(tables.map((t) => `SELECT '${t}' AS table WHERE EXISTS (SELECT 1 FROM ${t})`).join(' UNION ALL '));
  if (rows.length) {
    throw new MaintenanceError(`the PostgreSQL database ${redactedUrl(url)} is not empty (rows in ${rows.map((r) => r.table).join(', ')}); import only into a new database`);
  }
}

export async function importPgEvents(options: PgImportOptions): Promise<ImportReport> {
  // Listening before the first await: a readline interface emits its lines whether or not
  // anyone listens yet, and its iterator buffers them only from when it is created.
  const iterator = options.lines[Symbol.asyncIterator]();
  const lines: AsyncIterable<string> = { [Symbol.asyncIterator]: () => iterator };
  const handle = await openPgStore(options.url, { existing: false, max: 1 });
  try {
    return await inTransaction(handle.pool, async (client) => {
      await lockAppends(client);
      await assertEmptyStore(client, options.url);
      const foldWith = await foldOptions(client);
      const writer = new PgFoldWriter(client, new ProjectionRowFold(foldWith), foldWith, (table) => table);
      const checker = new LogShapeChecker();
      // The ids of the repeated texts (the import is one transaction: an id read here stays its text's).
      const textIds = new Map<string, number>();
      const insertEvents = async (rows: EventRow[]) => {
        const unknown = [...new Set(rows.flatMap((row) => [row.actorUser, row.actorGroups, row.userAgent, row.fieldManager]))].filter((text) => !textIds.has(text));
        if (unknown.length) {
          const { rows: ids } = await client.query<{ text: string; id: number | string }>('SELECT t AS text, svctrail_text_id(t) AS id FROM unnest($1::text[]) t', [unknown]);
          for (const { text, id } of ids) textIds.set(text, Number(id));
        }
        await insertRows(
          client,
          'events',
          EVENT_TYPES,
          rows.map((row) => {
            const stored = eventTableRowOf(row, (text) => {
              // Every repeated text of the rows was looked up above: a miss is this code's bug, never a NULL id.
              const id = textIds.get(text);
              if (id === undefined) throw new Error(`import: no id looked up for the repeated text ${JSON.stringify(text)} of event ${row.position}`);
              return id;
            });
            return EVENT_TABLE_COLUMNS.map((c) => stored[c.key]);
          }),
        );
      };
      const mirror = new MirrorFactOrder();
      let mirrorBatch: { table: MirrorFactTable; row: Row }[] = [];
      const insertMirrorFacts = async (facts: { table: MirrorFactTable; row: Row }[]) => {
        for (const table of MIRROR_FACT_TABLE_NAMES) {
          const rows = facts.filter((f) => f.table === table).map((f) => f.row);
          if (rows.length) await insertRows(client, table, MIRROR_FACT_TABLES[table].columns, rows);
        }
      };
      options.progress.start('import events', options.inputBytes, 'bytes');
      let batch: EventRow[] = [];
      let lineNumber = 0;
      const compactions: Compaction[] = [];
      const folding = <T>(work: () => T): T => {
        try {
          return work();
        } catch (error) {
          throw new MaintenanceError(`the events do not fold into Services: ${(error as Error).message}`);
        }
      };
      // The database inserts one batch while the next is decoded and folded: one batch in flight
      // at a time (the connection runs its queries in order), its failure seen at the next.
      let inFlight: Promise<void> = Promise.resolve();
      const behind = (work: () => Promise<void>): Promise<void> => {
        const previous = inFlight;
        inFlight = previous.then(work);
        inFlight.catch(() => undefined); // awaited at the next batch or at the end
        return previous;
      };
      for await (const text of lines) {
        lineNumber++;
        options.progress.advance(Buffer.byteLength(text) + 1);
        if (!text.trim()) continue;
        if (isCompactionLine(text)) {
          compactions.push(decodeCompactionLine(text, lineNumber));
          continue;
        }
        if (isMirrorFactLine(text)) {
          mirrorBatch.push(mirror.acceptLine(text, lineNumber, checker.position, compactions.length > 0));
          if (mirrorBatch.length === BATCH) {
            const facts = mirrorBatch;
            mirrorBatch = [];
            await behind(() => insertMirrorFacts(facts));
          }
          continue;
        }
        if (compactions.length) throw new EventLineError(lineNumber, 'an event after the compaction lines (they end an export)');
        mirror.acceptEvent(lineNumber);
        const row = decodeEventLine(text, lineNumber);
        checker.accept(row, lineNumber);
        batch.push(row);
        folding(() => writer.fold.add(toRecorded(row)));
        if (batch.length === BATCH) {
          const events = batch;
          const projected = writer.takeRows();
          batch = [];
          await behind(async () => {
            await insertEvents(events);
            if (projected) await writer.insert(projected);
          });
        }
      }
      await inFlight;
      await insertEvents(batch);
      await insertMirrorFacts(mirrorBatch);
      checker.finish(lineNumber);
      folding(() => writer.fold.present());
      await writer.flush(true);
      await refuseDanglingFacts(new PgSqlReader(() => client));
      const horizon = importedHorizon(compactions, checker.position);
      for (const { sql, params } of compactionInserts(compactions)) await client.query(sql, params as unknown[]);
      await pgFoldToHorizon(client, horizon, (table) => table, true);
      options.progress.done();
      return { database: redactedUrl(options.url), events: checker.events, writes: writer.fold.writes, resourceVersion: checker.position, mirrorFacts: mirror.facts };
    });
  } finally {
    await handle.close();
  }
}
