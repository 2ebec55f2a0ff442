// `svctrail export [--data-dir DIR | --storage postgres://…] [--since RV|TIME] [--until RV|TIME] [--out FILE] [-o json|yaml]`
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { publishFile } from '../maintenance/database-files';
import { parseArgs } from 'node:util';
import { exportEvents, type ExportReport } from '../maintenance/event-exporter';
import { exportPgEvents } from '../maintenance/postgres/pg-event-exporter';
import { parseLogPoint } from '../maintenance/log-point';
import { MaintenanceError } from '../maintenance/maintenance-error';
import { parseOutputFormat, structured } from './output-format';
import { ProgressBar } from './progress-bar';
import { commandStore, STORAGE_USAGE } from './storage-option';

export const EXPORT_USAGE = `usage: svctrail export [--data-dir DIR | --storage postgres://…] [--since RV|TIME] [--until RV|TIME] [--out FILE] [-o json|yaml]
  Writes the events as NDJSON, one event row per line with every column, oldest first: the whole
  log, or the writes after --since and up to and including --until (resourceVersions or RFC 3339
  times; writes are never split). To FILE (written under a temporary name and renamed when
  complete) or to stdout. The summary goes to stdout with --out, to stderr otherwise.
  A mirror's store adds its facts after the events: the cluster it records and where its watches
  resume, where each write came from, who made it (audit actors) and the audit events still
  waiting for their write. With --until, as they were at that point: the actors known then, and
  no resume point or waiting audit event (a store imported from it lists its source again).
  Only an export without --since can be imported (svctrail import), into either engine: the
  lines are the same whichever engine they were exported from.
${STORAGE_USAGE}`;

export async function runExport(argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      storage: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      out: { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    out(EXPORT_USAGE);
    return 0;
  }
  const format = parseOutputFormat(values.output);
  const since = values.since === undefined ? undefined : parseLogPoint(values.since, '--since');
  const until = values.until === undefined ? undefined : parseLogPoint(values.until, '--until');
  const store = commandStore({ storage: values.storage, dataDir: values['data-dir'] }, process.env.SVCTRAIL_STORAGE);
  const common = { since, until, progress: new ProgressBar() };
  const exportTo = (write: (chunk: string) => Promise<void>): Promise<ExportReport> =>
    store.engine === 'postgres' ? exportPgEvents({ ...common, url: store.url, write }) : exportEvents({ ...common, dataDir: store.dataDir, write });
  let report: ExportReport;
  if (values.out === undefined) {
    report = await exportTo((chunk) => writeStdout(chunk));
  } else {
    const temporary = `${values.out}.partial-${process.pid}`;
    // 0600: the events name every user and what they changed.
    const fd = openSync(temporary, 'w', 0o600);
    try {
      report = await exportTo(async (chunk) => void writeSync(fd, chunk));
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(temporary, { force: true });
      throw error;
    }
    closeSync(fd);
    publishFile(temporary, values.out);
  }
  const summary =
    structured(format, report) ??
    `exported ${report.events} events (resourceVersions ${report.afterResourceVersion + 1}..${report.throughResourceVersion})` +
      `${report.mirrorFacts ? ` and ${report.mirrorFacts} facts of the mirror` : ''}` +
      `${values.out ? ` to ${values.out}` : ''}${report.complete ? '' : '; a window without the start of the log cannot be imported'}`;
  (values.out === undefined ? err : out)(summary);
  return 0;
}

/**
 * Honours back-pressure so a slow pipe (| gzip) holds the export instead of buffering it all; a
 * reader that goes away (| head) ends the export with an error instead of an unhandled EPIPE.
 */
function writeStdout(chunk: string): Promise<void> {
  if (!process.stdout.listenerCount('error')) process.stdout.on('error', () => undefined); // reported through the write callback
  return new Promise((resolve, reject) => {
    const flushed = process.stdout.write(chunk, (error) => {
      if (error) reject(new MaintenanceError(`cannot write to stdout: ${error.message}`));
    });
    if (flushed) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}
