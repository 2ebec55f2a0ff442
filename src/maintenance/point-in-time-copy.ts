// `svctrail replay --until <rv|time> --out DIR`: the whole store as it was at a point in the
// log, as a new data directory. The events up to that point are copied from one read snapshot
// of the live database (only read), folded into fresh projections with the normal code, made
// read-only (read-only-guard.ts) and published as DIR/svctrail.db by an atomic rename, so a
// half-built copy is never mistaken for a finished one. `npm start -- --data-dir DIR` serves it
// with the ordinary start-up path (it creates its own CA, certificates and admin token in DIR).
// A mirror's store keeps its facts up to the point (mirror-facts.ts: the actors known then, no
// resume point): a copy records nothing, so it has nowhere to resume from.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { join, resolve } from 'node:path';
import type { DatabaseHandle } from '../store/database';
import { openDatabase } from '../store/database';
import { createScratchDatabase, publishFile, removeDatabaseFiles, sealDatabase } from './database-files';
import { assertEmptyDirectory, dataDirectory, existingDataDirectory } from './data-directory';
import { foldProjections } from './folded-projections';
import { copyEvents } from './log-copy';
import { describeLogPoint, type LogPoint, logHead, resolveLogPoint } from './log-point';
import { MaintenanceError } from './maintenance-error';
import type { Progress } from './progress';
import { makeReadOnly } from './read-only-guard';
import { keptMirrorTablesOf, keptMirrorTablesSql, MIRROR_FACT_TABLE_NAMES, mirrorFactInsert, mirrorFactRowsQuery, type MirrorFactWindow } from './mirror-facts';
import { bound } from '../store/sqlite-sql-reader';
import { SQLITE_DIALECT } from '../store/sql/sql-reader';
import { scratchPath } from './scratch-path';
import { foldToHorizon, recordsFactsChecksums, sqliteHorizon } from './store-horizon';

export interface PointInTimeOptions {
  dataDir: string;
  until: LogPoint;
  outDir: string;
  progress: Progress;
}

export interface PointInTimeReport {
  source: string;
  database: string;
  until: string;
  /** The newest write the copy holds (0: none). */
  resourceVersion: number;
  recordedAt: string | null;
  events: number;
  writes: number;
  /** A mirror's facts up to the point (mirror-facts.ts). */
  mirrorFacts: number;
}

export function buildPointInTime(options: PointInTimeOptions): PointInTimeReport {
  const source = existingDataDirectory(options.dataDir);
  const target = dataDirectory(options.outDir);
  if (resolve(target.dataDir) === resolve(source.dataDir)) throw new MaintenanceError('--out must be a new directory, not the data directory itself');
  assertEmptyDirectory(target.dataDir, '--out');
  const created = !existsSync(target.dataDir);
  mkdirSync(target.dataDir, { recursive: true, mode: 0o700 });
  let finished = false;
  const path = scratchPath(target.dataDir, 'point-in-time');
  let scratch: DatabaseHandle | undefined;
  let live: DatabaseHandle | undefined;
  try {
    scratch = createScratchDatabase(path, source.migrationsFolder);
    live = openDatabase({ path: source.databasePath, migrationsFolder: source.migrationsFolder, synchronous: 'NORMAL', readonly: true });
    const sqlite = live.sqlite;
    const { events, horizon, mirrorFacts } = sqlite.transaction(() => {
      const until = resolveLogPoint(sqlite, options.until, '--until');
      // Below the horizon the objects are gone: the copy would have to make them up from the log.
      const atHorizon = sqliteHorizon(sqlite);
      if (until < atHorizon) throw new MaintenanceError(`the history is compacted up to resourceVersion ${atHorizon}: a point-in-time copy can be made at it or later, not at ${until}`);
      if (atHorizon > 0) copyCompactions(sqlite, scratch!);
      const knownAt = options.until.kind === 'time' ? options.until.time : ((sqlite.prepare('SELECT recorded_at FROM events WHERE position = ?').pluck().get(until) as string | undefined) ?? '');
      return {
        events: copyEvents(sqlite, scratch!, until, options.progress),
        horizon: atHorizon,
        mirrorFacts: copyMirrorFacts(sqlite, scratch!, { after: 0, through: until, cut: { knownAt } }),
      };
    })();
    live.close();
    live = undefined;
    const { writes } = foldProjections(scratch, options.progress);
    foldToHorizon(scratch, horizon);
    const head = logHead(scratch.sqlite);
    const recordedAt = (scratch.sqlite.prepare('SELECT recorded_at FROM events WHERE position = ?').pluck().get(head) as string | undefined) ?? null;
    makeReadOnly(scratch);
    sealDatabase(scratch, path);
    scratch = undefined;
    publishFile(path, target.databasePath);
    const report: PointInTimeReport = {
      source: source.databasePath,
      database: target.databasePath,
      until: describeLogPoint(options.until),
      resourceVersion: head,
      recordedAt,
      events,
      writes,
      mirrorFacts,
    };
    // A note for whoever finds the directory later; the server ignores it.
    writeFileSync(join(target.dataDir, 'point-in-time.json'), `${JSON.stringify(report, null, 2)}\n`, { mode: 0o600 });
    finished = true;
    return report;
  } finally {
    live?.close();
    scratch?.close();
    removeDatabaseFiles(path);
    if (!finished && created) rmSync(target.dataDir, { recursive: true, force: true });
  }
}

/** The compaction records, as they are: the copy is compacted as its source was. */
function copyCompactions(source: Database.Database, scratch: DatabaseHandle): void {
  const columns = 'id, horizon_resource_version, horizon_time, actor_user, started_at, finished_at, removed_writes, removed_objects, removed_bytes';
  const insert = scratch.sqlite.prepare(`INSERT INTO compactions (${columns}, facts_checksum, facts_checksum_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // (A source compacted before checksums recorded none.)
  const checksums = recordsFactsChecksums(source) ? 'facts_checksum, facts_checksum_after' : 'NULL, NULL';
  for (const row of source.prepare(`SELECT ${columns}, ${checksums} FROM compactions ORDER BY id`).raw().all() as unknown[][]) insert.run(...row);
}

/** A mirror's facts the point holds, as they are (mirror-facts.ts' window rule); how many. */
function copyMirrorFacts(source: Database.Database, scratch: DatabaseHandle, window: MirrorFactWindow): number {
  const kept = keptMirrorTablesOf(source.prepare(keptMirrorTablesSql(SQLITE_DIALECT)!).pluck().all() as string[]);
  let copied = 0;
  scratch.sqlite
    .transaction(() => {
      for (const table of MIRROR_FACT_TABLE_NAMES) {
        const query = mirrorFactRowsQuery(table, window, kept, SQLITE_DIALECT);
        if (!query) continue;
        const insert = scratch.sqlite.prepare(mirrorFactInsert(table));
        for (const row of source.prepare(query.sql).raw().iterate(bound(query.params)) as Iterable<unknown[]>) {
          insert.run(bound(row));
          copied++;
        }
      }
    })
    .immediate();
  return copied;
}
