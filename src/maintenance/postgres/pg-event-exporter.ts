// `svctrail export --storage postgres://…`: the same NDJSON lines as the SQLite exporter
// (event-line.ts, one per events row in position order), read in one REPEATABLE READ snapshot,
// so a running server may keep writing. An export of the same history is byte for byte the
// same from either engine.
import { redactedUrl } from '../../store/postgres/postgres-database';
import { checkout, Queryable } from '../../store/postgres/postgres-database';
import { encodeEventLine } from '../event-line';
import type { ExportReport } from '../event-exporter';
import { describeLogPoint, LogPoint } from '../log-point';
import { MaintenanceError } from '../maintenance-error';
import { openPgStore } from './pg-store-connection';
import type { Progress } from '../progress';
import { pgEventPages, pgLogHead } from './pg-log-reader';

export interface PgExportOptions {
  url: string;
  since?: LogPoint;
  until?: LogPoint;
  write: (chunk: string) => Promise<void>;
  progress: Progress;
}

/** As resolveLogPoint: a time is the newest write recorded at or before it (recorded_at grows with position). */
async function resolvePgLogPoint(client: Queryable, head: number, point: LogPoint, flag: string): Promise<number> {
  if (point.kind === 'resourceVersion') {
    if (point.resourceVersion > head) throw new MaintenanceError(`${flag} ${point.resourceVersion} is newer than the log, whose newest resourceVersion is ${head}`);
    return point.resourceVersion;
  }
  const { rows } = await client.query<{ rv: number }>('SELECT coalesce(max(resource_version), 0) AS rv FROM events WHERE recorded_at <= $1', [point.time]);
  return rows[0].rv;
}

export async function exportPgEvents(options: PgExportOptions): Promise<ExportReport> {
  const handle = await openPgStore(options.url, { existing: true, max: 1 });
  try {
    const client = await checkout(handle.pool);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const head = await pgLogHead(client);
        const after = options.since ? await resolvePgLogPoint(client, head, options.since, '--since') : 0;
        const through = options.until ? await resolvePgLogPoint(client, head, options.until, '--until') : head;
        if (after > through) throw new MaintenanceError(`--since (resourceVersion ${after}) is after --until (resourceVersion ${through})`);
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM events WHERE position > $1 AND position <= $2 AND resource_version > $1 AND resource_version <= $2',
          [after, through],
        );
        options.progress.start('export', rows[0].n, 'events');
        let events = 0;
        for await (const page of pgEventPages(client, after, through)) {
          await options.write(page.map((row) => `${encodeEventLine(row)}\n`).join(''));
          events += page.length;
          options.progress.advance(page.length);
        }
        options.progress.done();
        return {
          database: redactedUrl(options.url),
          since: options.since ? describeLogPoint(options.since) : null,
          until: options.until ? describeLogPoint(options.until) : null,
          afterResourceVersion: after,
          throughResourceVersion: through,
          events,
          complete: after === 0,
        };
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
