// Folds the PostgreSQL log (or events arriving from elsewhere, import) into projection rows
// (ProjectionRowFold) and inserts them in bulk into a set of tables: the live ones (import),
// temporary ones (verify) or shadow ones (replay).
import type { Queryable } from '../../store/postgres/postgres-database';
import type { Progress } from '../progress';
import { type ProjectionRowFold, type ProjectionTable, type Row, rowColumns, type RowFoldOptions } from '../projection-row-fold';
import { toRecorded } from '../../store/event-store';
import { PgSqlReader } from '../../store/postgres/pg-sql-reader';
import { eventPages } from '../log-pages';
import { insertRows } from './pg-row-writer';

/** Rows held in memory before they are inserted. */
const FLUSH_ROWS = 20_000;

/**
 * Whether service_revisions has the stored patch column (added to the PostgreSQL schema after
 * the other tables): the fold computes it only where it exists.
 */
export async function foldOptions(client: Queryable): Promise<RowFoldOptions> {
  const { rows } = await client.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'service_revisions' AND column_name = 'patch'`);
  return { revisionPatches: rows.length > 0 };
}

/** Where each table's rows go. */
export type TableNames = (table: ProjectionTable) => string;

export class PgFoldWriter {
  constructor(
    private readonly client: Queryable,
    readonly fold: ProjectionRowFold,
    private readonly options: RowFoldOptions,
    private readonly target: TableNames,
  ) {}

  /** Inserts the rows decided so far, when there are many (or `always`). */
  async flush(always = false): Promise<void> {
    const rows = this.takeRows(always);
    if (rows) await this.insert(rows);
  }

  /** The rows decided so far when there are many (or `always`), to insert later (`insert`). */
  takeRows(always = false): Map<ProjectionTable, Row[]> | undefined {
    return always || this.fold.pendingRows >= FLUSH_ROWS ? this.fold.take() : undefined;
  }

  async insert(taken: Map<ProjectionTable, Row[]>): Promise<void> {
    for (const [table, rows] of taken) await insertRows(this.client, this.target(table), rowColumns(table, this.options), rows);
  }

  /**
   * Folds the log's whole writes with resourceVersion in (after, through], read on `reader`;
   * `hold`: keeps every row in memory until the caller flushes (replay's catch-up).
   */
  async foldLog(reader: Queryable, after: number, through: number, progress: Progress, hold = false): Promise<void> {
    for await (const page of eventPages(new PgSqlReader(() => reader), after, through)) {
      for (const row of page) this.fold.add(toRecorded(row));
      progress.advance(page.length);
      if (!hold) await this.flush();
    }
    this.fold.endWrite();
  }
}
