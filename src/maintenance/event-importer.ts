// `svctrail import`: a new store from NDJSON events (event-line.ts). Only into a new or empty
// data directory; only a whole log from position 1 with positions, resourceVersions and stream
// versions as the store writes them (checked line by line). The events go into a scratch
// database in that directory, the projections are folded from them with the normal code, and
// the finished file is renamed to svctrail.db: an import that fails leaves no database behind. A
// mirror's facts after the events (mirror-fact-line.ts) are stored as they are, each checked to
// name a write of the log.
import type Database from 'better-sqlite3';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import type { DatabaseHandle } from '../store/database';
import { type DataDirectoryLock, lockDataDirectory } from '../store/data-directory-lock';
import { createScratchDatabase, publishFile, removeDatabaseFiles, sealDatabase } from './database-files';
import { assertEmptyDirectory, dataDirectory } from './data-directory';
import { createDerived, derivedSchema, dropDerived } from '../store/derived-schema';
import { EVENT_TABLE_INSERT, eventTableRowOf, type EventRow } from './event-columns';
import { SqliteRepeatedTexts } from '../store/sqlite-repeated-texts';
import { decodeCompactionLine, importedHorizon, isCompactionLine } from './compaction-line';
import { decodeEventLine, EventLineError } from './event-line';
import { isMirrorFactLine, MirrorFactOrder } from './mirror-fact-line';
import { mirrorFactInsert, type MirrorFactTable } from './mirror-facts';
import { refuseDanglingFacts } from './mirror-facts-verification';
import type { Row } from './projection-row-fold';
import { compactionInserts } from '../store/history-compaction';
import type { Compaction } from '../store/ports/history-compaction';
import { bound, SqliteSqlReader } from '../store/sqlite-sql-reader';
import { foldToHorizon } from './store-horizon';
import { foldProjections } from './folded-projections';
import { MaintenanceError } from './maintenance-error';
import type { Progress } from './progress';
import { scratchPath } from './scratch-path';

export interface ImportOptions {
  dataDir: string;
  /** NDJSON lines (without their newline). */
  lines: AsyncIterable<string>;
  /** Size of the input in bytes, for progress (undefined: unknown, e.g. stdin). */
  inputBytes?: number;
  progress: Progress;
}

export interface ImportReport {
  database: string;
  events: number;
  writes: number;
  resourceVersion: number;
  /** A mirror's facts beside its writes (mirror-facts.ts). */
  mirrorFacts: number;
}

const BATCH = 5000;

export async function importEvents(options: ImportOptions): Promise<ImportReport> {
  const dir = dataDirectory(options.dataDir);
  assertEmptyDirectory(dir.dataDir, 'data directory');
  const created = !existsSync(dir.dataDir);
  mkdirSync(dir.dataDir, { recursive: true, mode: 0o700 });
  // Owned like a server owns it: a server started on NEWDIR meanwhile refuses.
  let lock: DataDirectoryLock;
  try {
    lock = lockDataDirectory(dir.dataDir);
  } catch (error) {
    if (created) rmSync(dir.dataDir, { recursive: true, force: true });
    throw error;
  }
  const path = scratchPath(dir.dataDir, 'import');
  let scratch: DatabaseHandle | undefined;
  let finished = false;
  try {
    scratch = createScratchDatabase(path, dir.migrationsFolder);
    // A bulk load: the log's secondary indexes are built once, after the last row.
    const derived = derivedSchema(scratch.sqlite, ['events']);
    dropDerived(scratch.sqlite, derived);
    const insert = scratch.sqlite.prepare(EVENT_TABLE_INSERT);
    const texts = new SqliteRepeatedTexts(scratch.sqlite);
    // Ids kept for the whole import: a failed import discards the scratch database, ids and all.
    const textIds = new Map<string, number>();
    const textId = (text: string) => {
      let id = textIds.get(text);
      if (id === undefined) textIds.set(text, (id = texts.idOf(text)));
      return id;
    };
    const insertBatch = scratch.sqlite.transaction((rows: EventRow[]) => {
      for (const row of rows) insert.run(eventTableRowOf(row, textId));
    });
    const mirrorInserts = new Map<MirrorFactTable, Database.Statement>();
    const insertMirrorFacts = scratch.sqlite.transaction((rows: { table: MirrorFactTable; row: Row }[]) => {
      for (const { table, row } of rows) {
        let statement = mirrorInserts.get(table);
        if (!statement) mirrorInserts.set(table, (statement = scratch!.sqlite.prepare(mirrorFactInsert(table))));
        statement.run(bound(row));
      }
    });
    const checker = new LogShapeChecker();
    const mirror = new MirrorFactOrder();
    options.progress.start('read events', options.inputBytes, 'bytes');
    let batch: EventRow[] = [];
    let mirrorBatch: { table: MirrorFactTable; row: Row }[] = [];
    let lineNumber = 0;
    const compactions: Compaction[] = [];
    for await (const text of options.lines) {
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
          insertMirrorFacts(mirrorBatch);
          mirrorBatch = [];
        }
        continue;
      }
      if (compactions.length) throw new EventLineError(lineNumber, 'an event after the compaction lines (they end an export)');
      mirror.acceptEvent(lineNumber);
      const row = decodeEventLine(text, lineNumber);
      checker.accept(row, lineNumber);
      batch.push(row);
      if (batch.length === BATCH) {
        insertBatch(batch);
        batch = [];
      }
    }
    insertBatch(batch);
    insertMirrorFacts(mirrorBatch);
    checker.finish(lineNumber);
    scratch.sqlite.transaction(() => createDerived(scratch!.sqlite, derived))();
    options.progress.done();
    let folded;
    try {
      folded = foldProjections(scratch, options.progress);
    } catch (error) {
      throw new MaintenanceError(`the events do not fold into Services: ${(error as Error).message}`);
    }
    await refuseDanglingFacts(new SqliteSqlReader(scratch));
    const horizon = importedHorizon(compactions, checker.position);
    for (const { sql, params } of compactionInserts(compactions)) scratch.sqlite.prepare(sql).run(bound(params ?? []));
    foldToHorizon(scratch, horizon);
    sealDatabase(scratch, path);
    scratch = undefined;
    publishFile(path, dir.databasePath);
    finished = true;
    return { database: dir.databasePath, events: checker.events, writes: folded.writes, resourceVersion: checker.position, mirrorFacts: mirror.facts };
  } finally {
    scratch?.close();
    removeDatabaseFiles(path);
    // Nothing is left of a refused import; the lock file goes while still held.
    if (!finished) rmSync(created ? dir.dataDir : lock.path, { recursive: true, force: true });
    lock.release();
  }
}

/** The invariants the event store keeps, checked as lines stream by. */
export class LogShapeChecker {
  position = 0;
  events = 0;
  private resourceVersion = 0;
  private streamId = '';
  private readonly streamVersions = new Map<string, number>();

  accept(row: EventRow, lineNumber: number): void {
    const fail = (message: string) => {
      throw new EventLineError(lineNumber, message);
    };
    if (row.position !== this.position + 1) {
      if (this.position === 0) {
        fail(`the log starts at position ${row.position}, not 1: only a whole log (an export without --since) can be imported`);
      }
      fail(`position ${row.position} does not follow ${this.position}`);
    }
    // Every event of a write carries the position of the write's last event as resourceVersion.
    if (row.position > this.resourceVersion && this.resourceVersion !== this.position) fail(`the write at resourceVersion ${this.resourceVersion} ends early`);
    if (row.position <= this.resourceVersion && row.resourceVersion !== this.resourceVersion) fail(`resourceVersion ${row.resourceVersion} inside the write at ${this.resourceVersion}`);
    if (row.position <= this.resourceVersion && row.streamId !== this.streamId) fail(`stream ${row.streamId} inside the write of stream ${this.streamId}`);
    if (row.resourceVersion < row.position) fail(`resourceVersion ${row.resourceVersion} is before position ${row.position}`);
    const streamVersion = this.streamVersions.get(row.streamId) ?? 0;
    if (row.streamVersion !== streamVersion + 1) fail(`stream ${row.streamId} version ${row.streamVersion} does not follow ${streamVersion}`);
    this.streamVersions.set(row.streamId, row.streamVersion);
    this.position = row.position;
    this.streamId = row.streamId;
    this.resourceVersion = row.resourceVersion;
    this.events++;
  }

  finish(lineNumber: number): void {
    if (this.resourceVersion !== this.position) {
      throw new EventLineError(lineNumber, `the input ends inside the write at resourceVersion ${this.resourceVersion} (truncated?)`);
    }
  }
}
