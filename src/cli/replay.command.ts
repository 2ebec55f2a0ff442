// `svctrail replay [--data-dir DIR | --storage postgres://…] [-o json|yaml]` and
// `svctrail replay --until RV|TIME --out NEWDIR [--data-dir DIR] [-o json|yaml]`
import { parseArgs } from 'node:util';
import { existingDataDirectory } from '../maintenance/data-directory';
import { parseLogPoint } from '../maintenance/log-point';
import { buildPointInTime } from '../maintenance/point-in-time-copy';
import { replayPgProjections } from '../maintenance/postgres/pg-projection-replayer';
import { replayDataDirectory, type ReplayReport } from '../maintenance/projection-replayer';
import { parseOutputFormat, structured, table } from './output-format';
import { ProgressBar } from './progress-bar';
import { commandStore, STORAGE_USAGE } from './storage-option';
import { UsageError } from './usage-error';

export const REPLAY_USAGE = `usage: svctrail replay [--data-dir DIR | --storage postgres://…] [-o json|yaml]
       svctrail replay --until RV|TIME --out NEWDIR [--data-dir DIR] [-o json|yaml]
  Rebuilds every projection from the event log into fresh tables (a scratch database in DIR),
  copies them into shadow tables of the live database in small transactions, folds in the writes
  a running server commits meanwhile, and swaps the tables in by renaming them in one short
  IMMEDIATE transaction: readers see the old tables or the new ones, a failure leaves the live
  projections untouched, and the server's writes keep succeeding (each waits at most for one
  short transaction of replay's). One replay at a time per directory (svctrail.replay.lock).
  With no server running, replay also holds the server's lock (svctrail.lock: a server started
  meanwhile refuses, as during an import) and runs its transactions back to back. A mirror's
  facts (where each write came from, audit actors, resume points) are not projections: replay
  leaves them as they are.
  With --until, builds the whole store as it was at resourceVersion RV (the writes up to and
  including it) or at an RFC 3339 TIME (the writes recorded at or before it) as a new data
  directory NEWDIR; the live data is only read. Serve it with npm start -- --data-dir NEWDIR:
  it is read-only (every write is refused with a 500). A mirror's store keeps its facts up to that
  point (where each write came from, the audit actors known then) but no resume point: the copy
  records nothing, --mirror or not.
  With --storage (PostgreSQL): the fresh tables are shadow tables in the same database, caught
  up without a lock, then swapped in (renamed) in one transaction under the lock every append
  takes, so replicas' writes wait for the swap and none is lost. One replay at a time per
  database. --until is for SQLite data directories only.
${STORAGE_USAGE}`;

export async function runReplay(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      storage: { type: 'string' },
      until: { type: 'string' },
      out: { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    out(REPLAY_USAGE);
    return 0;
  }
  const format = parseOutputFormat(values.output);
  const progress = new ProgressBar();
  const store = commandStore({ storage: values.storage, dataDir: values['data-dir'] }, process.env.SVCTRAIL_STORAGE);
  if (store.engine === 'postgres' && (values.until !== undefined || values.out !== undefined)) {
    throw new UsageError('--until and --out (a point-in-time copy) are for SQLite data directories; export the PostgreSQL store with --until and import it instead');
  }
  if (values.until !== undefined) {
    if (values.out === undefined) throw new UsageError('--until needs --out NEWDIR: the point-in-time copy is a new data directory');
    const until = parseLogPoint(values.until, '--until');
    const report = buildPointInTime({ dataDir: store.engine === 'sqlite' ? store.dataDir : '', until, outDir: values.out, progress });
    out(
      structured(format, report) ??
        `wrote ${report.database}: ${report.events} events in ${report.writes} writes` +
          `${report.mirrorFacts ? ` and ${report.mirrorFacts} facts of the mirror` : ''}, up to resourceVersion ${report.resourceVersion}` +
          `${report.recordedAt ? ` (recorded ${report.recordedAt})` : ''}; serve it read-only with: npm start -- --data-dir ${values.out}`,
    );
    return 0;
  }
  if (values.out !== undefined) throw new UsageError('--out is only for replay --until (a point-in-time copy)');
  let report: ReplayReport;
  if (store.engine === 'postgres') {
    report = await replayPgProjections({ url: store.url, progress });
  } else {
    const dataDir = store.dataDir;
    // Missing database first (a clearer refusal than a lock in a directory that is not a store).
    existingDataDirectory(dataDir);
    report = await replayDataDirectory({ dataDir, progress });
  }
  const text = structured(format, report);
  if (text !== undefined) {
    out(text);
    return 0;
  }
  out(
    table(
      ['TABLE', 'ROWS', 'CHANGED'],
      report.tables.map((t) => [t.table, t.rows, t.changed ?? '?']),
    ),
  );
  const changed = report.tables.reduce((n, t) => n + (t.changed ?? 0), 0);
  out(
    `replayed ${report.events} events in ${report.writes} writes up to resourceVersion ${report.builtAt}` +
      `${report.caughtUpWrites ? `, then ${report.caughtUpWrites} writes committed meanwhile (up to ${report.resourceVersion})` : ''}; ` +
      `${changed} row${changed === 1 ? '' : 's'} changed; the swap held the write lock ${report.swapMs} ms (longest lock ${report.lock.longestMs} ms: ${report.lock.longest})` +
      `${report.alone ? '; no server was running (replay held its lock throughout)' : ''}`,
  );
  if (report.lock.overOneSecond.length) out(`write lock held 1 s or more: ${report.lock.overOneSecond.map((h) => `${h.what} ${h.ms} ms`).join('; ')}`);
  return 0;
}
