// `svctrail verify --storage postgres://…`: folds the PostgreSQL log with the live projections'
// rules (ProjectionRowFold) into temporary tables and compares every projection row with the
// live one, all in one REPEATABLE READ transaction: the log and the live tables are read in
// one snapshot while a running server keeps writing, and the temporary tables go with it.
import { redactedUrl } from '../../store/postgres/postgres-database';
import { checkout } from '../../store/postgres/postgres-database';
import type { Progress } from '../progress';
import { openPgStore } from './pg-store-connection';
import { pgFoldToHorizon, pgHorizon } from './pg-store-horizon';
import { PROJECTION_TABLES, ProjectionRowFold, type ProjectionTable } from '../projection-row-fold';
import type { VerifyReport } from '../projection-verifier';
import { logHeadOf } from '../log-pages';
import { PgSqlReader } from '../../store/postgres/pg-sql-reader';
import { comparePgProjections } from './pg-projection-comparison';
import { checkFactsChecksums } from '../facts-verification';
import { checkMirrorFacts } from '../mirror-facts-verification';
import { foldOptions, PgFoldWriter } from './pg-projection-fold';

export interface PgVerifyOptions {
  url: string;
  maxDifferences: number;
  progress: Progress;
}

const folded = (table: ProjectionTable) => `pg_temp.fold_${table}`;

export async function verifyPgProjections(options: PgVerifyOptions): Promise<VerifyReport> {
  const handle = await openPgStore(options.url, { existing: true, max: 1 });
  try {
    const client = await checkout(handle.pool);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      try {
        const head = await logHeadOf(new PgSqlReader(() => client)); // the first read pins the snapshot
        const foldWith = await foldOptions(client);
        for (const table of PROJECTION_TABLES) await client.query(`CREATE TEMPORARY TABLE fold_${table} (LIKE ${table}) ON COMMIT DROP`);
        const writer = new PgFoldWriter(client, new ProjectionRowFold(foldWith), foldWith, folded);
        options.progress.start('fold projections', head, 'events');
        await writer.foldLog(client, 0, head, options.progress);
        writer.fold.present();
        await writer.flush(true);
        await pgFoldToHorizon(client, await pgHorizon(client), folded, false);
        options.progress.done();
        options.progress.start('compare', PROJECTION_TABLES.length, 'tables');
        const projections = await comparePgProjections(client, PROJECTION_TABLES, foldWith, folded, options.maxDifferences);
        options.progress.advance(PROJECTION_TABLES.length);
        options.progress.done();
        const reader = new PgSqlReader(() => client);
        const comparison = await checkMirrorFacts(reader, await checkFactsChecksums(reader, projections, options.maxDifferences), options.maxDifferences);
        return { database: redactedUrl(options.url), resourceVersion: head, events: writer.fold.events, writes: writer.fold.writes, ...comparison };
      } finally {
        // Nothing to keep: the temporary tables go with the transaction.
        await client.query('ROLLBACK').catch((error: Error) => (broken = error));
      }
    } finally {
      client.releaseChecked(broken);
    }
  } finally {
    await handle.close();
  }
}
