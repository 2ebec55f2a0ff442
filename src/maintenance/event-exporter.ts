// `svctrail export`: the events of the whole log, or of a window of whole writes, as NDJSON
// (event-line.ts), read from one snapshot of the live database opened read-only, so a running
// server can keep writing meanwhile. The export itself (exportSnapshot) is the same on both
// engines; each opens its snapshot (SQLite here, PostgreSQL in postgres/pg-event-exporter.ts).
import type { DatabaseHandle } from '../store/database';
import { openDatabase } from '../store/database';
import type { SqlReader } from '../store/sql/sql-reader';
import { SqliteSqlReader } from '../store/sqlite-sql-reader';
import { existingDataDirectory } from './data-directory';
import { encodeCompactionLine } from './compaction-line';
import { encodeEventLine } from './event-line';
import { encodeMirrorFactLine } from './mirror-fact-line';
import { mirrorFactPages, type MirrorFactWindow } from './mirror-facts';
import { readCompactions } from '../store/history-compaction';
import { eventPages, eventsBetween, logHeadOf } from './log-pages';
import { describeLogPoint, type LogPoint, resolveLogPoint } from './log-point';
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
  /** A mirror's facts beside its writes (mirror-facts.ts). */
  mirrorFacts: number;
  /** The whole log from position 1: import can rebuild the store from it. */
  complete: boolean;
}

/** What an engine's export reads in its snapshot. */
export interface ExportSnapshot {
  /** The store, as the report names it. */
  database: string;
  db: SqlReader;
  /** The resourceVersion a point stands for (resolveLogPoint's rules). */
  resolve(point: LogPoint, flag: string): Promise<number>;
}

/** The mirror's facts of an export's window: a window cut --until a point holds what was known then. */
async function exportedMirrorWindow(db: SqlReader, after: number, through: number, until: LogPoint | undefined): Promise<MirrorFactWindow> {
  if (!until) return { after, through };
  const knownAt = until.kind === 'time' ? until.time : ((await db.one<{ recordedAt: string }>('SELECT recorded_at AS "recordedAt" FROM events WHERE position = $1', [through]))?.recordedAt ?? '');
  return { after, through, cut: { knownAt } };
}

/** The export, read in one snapshot of either engine. */
export async function exportSnapshot(snapshot: ExportSnapshot, options: Omit<ExportOptions, 'dataDir'>): Promise<ExportReport> {
  const { db } = snapshot;
  const head = await logHeadOf(db);
  const after = options.since ? await snapshot.resolve(options.since, '--since') : 0;
  const through = options.until ? await snapshot.resolve(options.until, '--until') : head;
  if (after > through) throw new MaintenanceError(`--since (resourceVersion ${after}) is after --until (resourceVersion ${through})`);
  options.progress.start('export', await eventsBetween(db, after, through), 'events');
  let events = 0;
  for await (const page of eventPages(db, after, through)) {
    await options.write(page.map((row) => `${encodeEventLine(row)}\n`).join(''));
    events += page.length;
    options.progress.advance(page.length);
  }
  // After the log they belong to (each names a write above), before the compactions that end it.
  let mirrorFacts = 0;
  for await (const facts of mirrorFactPages(db, await exportedMirrorWindow(db, after, through, options.until))) {
    await options.write(facts.map((fact) => `${encodeMirrorFactLine(fact)}\n`).join(''));
    mirrorFacts += facts.length;
  }
  // A whole log carries its compactions, so that an import answers as this store does.
  const kept = after === 0 ? await compactionsKept(db) : 'none';
  if (kept !== 'none') {
    const lines = (await readCompactions(db, { checksums: kept === 'with-checksums' })).filter((c) => c.horizon.resourceVersion <= through).map((c) => `${encodeCompactionLine(c)}\n`);
    if (lines.length) await options.write(lines.join(''));
  }
  options.progress.done();
  return {
    database: snapshot.database,
    since: options.since ? describeLogPoint(options.since) : null,
    until: options.until ? describeLogPoint(options.until) : null,
    afterResourceVersion: after,
    throughResourceVersion: through,
    events,
    mirrorFacts,
    complete: after === 0,
  };
}

export async function exportEvents(options: ExportOptions): Promise<ExportReport> {
  const dir = existingDataDirectory(options.dataDir);
  const live: DatabaseHandle = openDatabase({ path: dir.databasePath, migrationsFolder: dir.migrationsFolder, synchronous: 'NORMAL', readonly: true });
  const sqlite = live.sqlite;
  try {
    sqlite.exec('BEGIN'); // one snapshot across the awaits below
    try {
      const resolve = async (point: LogPoint, flag: string) => resolveLogPoint(sqlite, point, flag);
      return await exportSnapshot({ database: dir.databasePath, db: new SqliteSqlReader(live), resolve }, options);
    } finally {
      sqlite.exec('COMMIT');
    }
  } finally {
    live.close();
  }
}

/**
 * Whether the store keeps compactions, and their checksums: a SQLite store written before
 * migration 0010 (or 0011), read unmigrated, has no compactions table (or no checksum columns).
 */
async function compactionsKept(db: SqlReader): Promise<'none' | 'without-checksums' | 'with-checksums'> {
  const sqlite = db.dialect.name === 'sqlite';
  const table = sqlite ? "SELECT 1 AS kept FROM sqlite_schema WHERE name = 'compactions'" : "SELECT 1 AS kept WHERE to_regclass('compactions') IS NOT NULL";
  if ((await db.one(table)) === undefined) return 'none';
  const column = sqlite
    ? "SELECT 1 AS kept FROM pragma_table_info('compactions') WHERE name = 'facts_checksum'"
    : "SELECT 1 AS kept FROM information_schema.columns WHERE table_name = 'compactions' AND column_name = 'facts_checksum'";
  return (await db.one(column)) === undefined ? 'without-checksums' : 'with-checksums';
}
