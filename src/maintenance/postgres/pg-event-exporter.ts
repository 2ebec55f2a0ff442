// `svctrail export --storage postgres://…`: the same export as SQLite's (exportSnapshot), read in
// one REPEATABLE READ snapshot, so a running server may keep writing. An export of the same
// history is byte for byte the same from either engine.
import { PgSqlReader } from '../../store/postgres/pg-sql-reader';
import { checkout, redactedUrl } from '../../store/postgres/postgres-database';
import type { SqlReader } from '../../store/sql/sql-reader';
import { exportSnapshot } from '../event-exporter';
import type { ExportOptions, ExportReport } from '../event-exporter';
import { logHeadOf } from '../log-pages';
import type { LogPoint } from '../log-point';
import { MaintenanceError } from '../maintenance-error';
import { openPgStore } from './pg-store-connection';

export interface PgExportOptions extends Omit<ExportOptions, 'dataDir'> {
  url: string;
}

/**
 * As resolveLogPoint: a time is the newest write recorded at or before it (recorded_at grows with
 * position; PostgreSQL finds it by the scan SQLite's binary search of the primary key avoids).
 */
async function resolvePgLogPoint(db: SqlReader, point: LogPoint, flag: string): Promise<number> {
  if (point.kind === 'resourceVersion') {
    const head = await logHeadOf(db);
    if (point.resourceVersion > head) throw new MaintenanceError(`${flag} ${point.resourceVersion} is newer than the log, whose newest resourceVersion is ${head}`);
    return point.resourceVersion;
  }
  return (await db.one<{ rv: number }>('SELECT coalesce(max(resource_version), 0) AS rv FROM events WHERE recorded_at <= $1', [point.time]))!.rv;
}

export async function exportPgEvents(options: PgExportOptions): Promise<ExportReport> {
  const handle = await openPgStore(options.url, { existing: true, max: 1 });
  try {
    const client = await checkout(handle.pool);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const db = new PgSqlReader(() => client);
        return await exportSnapshot({ database: redactedUrl(options.url), db, resolve: (point, flag) => resolvePgLogPoint(db, point, flag) }, options);
      } finally {
        await client.query('COMMIT');
      }
    } finally {
      client.releaseChecked();
    }
  } finally {
    await handle.close();
  }
}
