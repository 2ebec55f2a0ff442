// `svctrail verify`: refolds the log into a scratch database with the same migrations and
// projection code (reading the live log directly; the scratch holds only the projections), and
// compares every projection row with the live one. Stored texts are compared by the text they
// hold, so the scratch keeps a revision's texts plain and the live ones are inflated instead
// (inflating takes a fraction of what deflating does). The live database is
// opened read-only and read in one snapshot, so a running server may keep writing meanwhile.
// A mirror's facts, which no fold rebuilds, are checked for what the log vouches for
// (mirror-facts-verification.ts).
import type { DatabaseHandle } from '../store/database';
import { openDatabase } from '../store/database';
import { createScratchDatabase, removeDatabaseFiles } from './database-files';
import { existingDataDirectory } from './data-directory';
import { foldProjections } from './folded-projections';
import { logHead } from './log-point';
import { compareProjections, type ProjectionComparison } from './projection-comparison';
import { projectionTables } from './projection-tables';
import type { Progress } from './progress';
import { scratchPath } from './scratch-path';
import { foldToHorizon, recordsFactsChecksums, sqliteHorizon } from './store-horizon';
import { checkFactsChecksums } from './facts-verification';
import { checkMirrorFacts } from './mirror-facts-verification';
import { SqliteSqlReader } from '../store/sqlite-sql-reader';
import { PLAIN_REVISION_TEXTS } from '../store/revision-texts';

export interface VerifyOptions {
  dataDir: string;
  /** How many differences to describe (all are counted). */
  maxDifferences: number;
  progress: Progress;
}

export interface VerifyReport extends ProjectionComparison {
  database: string;
  /** The log was read up to here (the head when verify started). */
  resourceVersion: number;
  events: number;
  writes: number;
}

export async function verifyProjections(options: VerifyOptions): Promise<VerifyReport> {
  const dir = existingDataDirectory(options.dataDir);
  const path = scratchPath(dir.dataDir, 'verify');
  let scratch: DatabaseHandle | undefined;
  let live: DatabaseHandle | undefined;
  try {
    scratch = createScratchDatabase(path, dir.migrationsFolder);
    live = openDatabase({ path: dir.databasePath, migrationsFolder: dir.migrationsFolder, synchronous: 'NORMAL', readonly: true });
    const sqlite = live.sqlite;
    // ATTACH is not allowed inside a transaction; the scratch is read only after it is built.
    sqlite.prepare('ATTACH DATABASE ? AS fold').run(path);
    sqlite.exec('BEGIN');
    try {
      const head = logHead(sqlite); // the first read pins the snapshot
      const { events, writes } = foldProjections(scratch, options.progress, { sqlite, untilResourceVersion: head }, PLAIN_REVISION_TEXTS);
      foldToHorizon(scratch, sqliteHorizon(sqlite));
      const tables = projectionTables(scratch);
      options.progress.start('compare', tables.length, 'tables');
      const projections = compareProjections(sqlite, 'main', 'fold', tables, options.maxDifferences);
      options.progress.advance(tables.length);
      options.progress.done();
      // (A store read unmigrated, from before checksums, has none to check.)
      const reader = new SqliteSqlReader(live);
      const checked = recordsFactsChecksums(sqlite) ? await checkFactsChecksums(reader, projections, options.maxDifferences) : projections;
      const comparison = await checkMirrorFacts(reader, checked, options.maxDifferences);
      return { database: dir.databasePath, resourceVersion: head, events, writes, ...comparison };
    } finally {
      sqlite.exec('COMMIT');
      sqlite.exec('DETACH DATABASE fold');
    }
  } finally {
    live?.close();
    scratch?.close();
    removeDatabaseFiles(path);
  }
}
