// `svctrail replay`: rebuilds every projection from the log and swaps the fresh tables in.
//
// 1. Build: the events up to the head H (one read snapshot of the live file) are copied into a
//    scratch database in the data directory, created with the same migrations, and folded there
//    by rebuildProjections. The live database is only read; a failure here changes nothing.
// 2. Swap: the scratch is attached to the live connection and, in ONE `BEGIN IMMEDIATE`
//    transaction, each projection table is emptied and refilled from its fresh twin (explicit
//    column lists, ids included), the row counts are checked, and writes a running server
//    committed after H are folded on top with the same projection code. Any error rolls the
//    whole transaction back: readers see either the old tables or the new ones, never a mix.
//    The IMMEDIATE lock makes the swap atomic with respect to a running server: its writes wait
//    (up to its 5 s busy timeout) until the swap commits, then continue on the new tables.
// Copying rows rather than renaming tables keeps every table and index exactly as the
// migrations created them.
import type { DatabaseHandle } from '../store/database';
import { openDatabase } from '../store/database';
import { Projector } from '../projections/projector';
import { foldWritesAfter } from './catch-up-fold';
import { createScratchDatabase, removeDatabaseFiles } from './database-files';
import { existingDataDirectory } from './data-directory';
import { foldProjections } from './folded-projections';
import { copyEvents } from './log-copy';
import { logHead } from './log-point';
import { countDifferingKeys } from './projection-comparison';
import { projectionTables } from './projection-tables';
import type { Progress } from './progress';
import { scratchPath } from './scratch-path';
import { columnList, tableShape } from './table-shape';

export interface ReplayOptions {
  dataDir: string;
  progress: Progress;
}

export interface ReplayedTable {
  table: string;
  rows: number;
  /** Rows (by primary key) the swap added, removed or changed; 0 when the projection was right,
   *  null when writes arrived during the build (the difference then includes them). */
  changed: number | null;
}

export interface ReplayReport {
  database: string;
  /** The fresh tables were built up to here... */
  builtAt: number;
  /** ...and hold the log up to here after the swap (later writes folded in the swap). */
  resourceVersion: number;
  events: number;
  writes: number;
  caughtUpWrites: number;
  tables: ReplayedTable[];
}

export function replayProjections(options: ReplayOptions): ReplayReport {
  const dir = existingDataDirectory(options.dataDir);
  const path = scratchPath(dir.dataDir, 'replay');
  let scratch: DatabaseHandle | undefined;
  let live: DatabaseHandle | undefined;
  try {
    scratch = createScratchDatabase(path, dir.migrationsFolder);
    live = openDatabase({ path: dir.databasePath, migrationsFolder: dir.migrationsFolder, synchronous: 'FULL' });
    const sqlite = live.sqlite;

    const builtAt = sqlite.transaction(() => {
      const head = logHead(sqlite);
      copyEvents(sqlite, scratch!, head, options.progress);
      return head;
    })();
    const { events, writes } = foldProjections(scratch, options.progress);
    const tables = projectionTables(scratch);
    scratch.close();
    scratch = undefined;

    sqlite.prepare('ATTACH DATABASE ? AS fresh').run(path);
    try {
      // Counted before the lock, so the swap holds it only for the copy. Valid if no write came since.
      const before = sqlite.transaction(() => ({
        head: logHead(sqlite),
        changed: new Map(tables.map((table) => [table, countDifferingKeys(sqlite, tableShape(sqlite, 'fresh', table), 'main', 'fresh')])),
      }))();
      options.progress.start('swap', tables.length, 'tables');
      const swapped = sqlite
        .transaction(() => {
          const head = logHead(sqlite);
          const replayed = tables.map((table) => {
            const shape = tableShape(sqlite, 'fresh', table);
            const cols = columnList(shape);
            sqlite.prepare(`DELETE FROM main.${table}`).run();
            sqlite.prepare(`DELETE FROM main.sqlite_sequence WHERE name = ?`).run(table);
            sqlite.prepare(`INSERT INTO main.${table} (${cols}) SELECT ${cols} FROM fresh.${table}`).run();
            const rows = sqlite.prepare(`SELECT count(*) FROM main.${table}`).pluck().get() as number;
            const expected = sqlite.prepare(`SELECT count(*) FROM fresh.${table}`).pluck().get() as number;
            if (rows !== expected) throw new Error(`swap of ${table} copied ${rows} rows instead of ${expected}`);
            options.progress.advance(1);
            const changed = head === builtAt && before.head === builtAt ? before.changed.get(table)! : null;
            return { table, rows, changed };
          });
          const caughtUpWrites = head > builtAt ? foldWritesAfter(live!, new Projector(live!), builtAt) : 0;
          return { head, replayed, caughtUpWrites };
        })
        .immediate();
      options.progress.done();
      const tablesAfter = swapped.replayed.map((t) => ({
        ...t,
        rows: swapped.caughtUpWrites ? (sqlite.prepare(`SELECT count(*) FROM main.${t.table}`).pluck().get() as number) : t.rows,
      }));
      return {
        database: dir.databasePath,
        builtAt,
        resourceVersion: swapped.head,
        events,
        writes,
        caughtUpWrites: swapped.caughtUpWrites,
        tables: tablesAfter,
      };
    } finally {
      sqlite.exec('DETACH DATABASE fresh');
    }
  } finally {
    scratch?.close();
    live?.close();
    removeDatabaseFiles(path);
  }
}
