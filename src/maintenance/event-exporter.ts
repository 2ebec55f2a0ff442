// `svctrail export`: the events of the whole log, or of a window of whole writes, as NDJSON
// (event-line.ts), read from one snapshot of the live database opened read-only, so a running
// server can keep writing meanwhile.
import type { DatabaseHandle } from '../store/database';
import { openDatabase } from '../store/database';
import { existingDataDirectory } from './data-directory';
import { EVENT_SELECT, EventRow } from './event-columns';
import { encodeEventLine } from './event-line';
import { describeLogPoint, LogPoint, logHead, resolveLogPoint } from './log-point';
import { MaintenanceError } from './maintenance-error';
import type { Progress } from './progress';

export interface ExportOptions {
  dataDir: string;
  /** Only writes after this point. */
  since?: LogPoint;
  /** Only writes up to and including this point. */
  until?: LogPoint;
  /** Receives NDJSON text (whole lines); awaited, so a slow consumer slows the export. */
  write: (chunk: string) => Promise<void>;
  progress: Progress;
}

export interface ExportReport {
  database: string;
  since: string | null;
  until: string | null;
  /** The window as resourceVersions: (after, through]. */
  afterResourceVersion: number;
  throughResourceVersion: number;
  events: number;
  /** The whole log from position 1: import can rebuild the store from it. */
  complete: boolean;
}

const PAGE = 5000;

export async function exportEvents(options: ExportOptions): Promise<ExportReport> {
  const dir = existingDataDirectory(options.dataDir);
  const live: DatabaseHandle = openDatabase({ path: dir.databasePath, migrationsFolder: dir.migrationsFolder, synchronous: 'NORMAL', readonly: true });
  const sqlite = live.sqlite;
  try {
    sqlite.exec('BEGIN'); // one snapshot across the awaits below
    try {
      const head = logHead(sqlite);
      const after = options.since ? resolveLogPoint(sqlite, options.since, '--since') : 0;
      const through = options.until ? resolveLogPoint(sqlite, options.until, '--until') : head;
      if (after > through) throw new MaintenanceError(`--since (resourceVersion ${after}) is after --until (resourceVersion ${through})`);
      // resource_version bounds keep writes whole; position bounds let the primary key drive the scan.
      const where = 'position > @from AND position <= @through AND resource_version > @after AND resource_version <= @through';
      const total = sqlite.prepare(`SELECT count(*) FROM events WHERE ${where}`).pluck().get({ from: after, after, through }) as number;
      const page = sqlite.prepare(`SELECT ${EVENT_SELECT} FROM events WHERE ${where} ORDER BY position LIMIT ${PAGE}`);
      options.progress.start('export', total, 'events');
      let events = 0;
      for (let from = after; ; ) {
        const rows = page.all({ from, after, through }) as EventRow[];
        if (!rows.length) break;
        await options.write(rows.map((row) => `${encodeEventLine(row)}\n`).join(''));
        events += rows.length;
        options.progress.advance(rows.length);
        from = rows[rows.length - 1].position;
      }
      options.progress.done();
      return {
        database: dir.databasePath,
        since: options.since ? describeLogPoint(options.since) : null,
        until: options.until ? describeLogPoint(options.until) : null,
        afterResourceVersion: after,
        throughResourceVersion: through,
        events,
        complete: after === 0,
      };
    } finally {
      sqlite.exec('COMMIT');
    }
  } finally {
    live.close();
  }
}
