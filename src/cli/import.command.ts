// `svctrail import (--data-dir NEWDIR | --storage postgres://…) [FILE|-] [-o json|yaml]`
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { importEvents, type ImportReport } from '../maintenance/event-importer';
import { importPgEvents } from '../maintenance/postgres/pg-event-importer';
import { parseOutputFormat, structured } from './output-format';
import { ProgressBar } from './progress-bar';
import { commandStore, STORAGE_USAGE } from './storage-option';
import { UsageError } from './usage-error';

export const IMPORT_USAGE = `usage: svctrail import (--data-dir NEWDIR | --storage postgres://…) [FILE|-] [-o json|yaml]
  Creates a store in NEWDIR (new or empty) from NDJSON events written by svctrail export (a whole
  log, from position 1) read from FILE or stdin, checking every line, and folds the projections
  from them: the result equals the exported store (svctrail verify passes, the API answers the
  same). A mirror's store comes back with its facts (its source cluster and resume points, where
  each write came from, audit actors, waiting audit events): served with --mirror against the
  same cluster, it resumes where the export stopped. Nothing is left in NEWDIR when the input is
  refused. Serve it with npm start -- --data-dir NEWDIR (it creates its own certificates and
  admin token there). With --storage, into a PostgreSQL database that holds no events,
  projection rows or mirror's facts yet, in one transaction: a refused import leaves it empty.
${STORAGE_USAGE}`;

export async function runImport(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      storage: { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    out(IMPORT_USAGE);
    return 0;
  }
  const format = parseOutputFormat(values.output);
  // No default here: importing into ./data by accident would be a surprise.
  const store = commandStore(
    { storage: values.storage, dataDir: values['data-dir'] },
    process.env.SVCTRAIL_STORAGE,
    null,
    'import needs --data-dir NEWDIR (a new or empty directory) or --storage postgres://… (an empty database)',
  );
  if (positionals.length > 1) throw new UsageError(`import reads one file, not ${positionals.length}`);
  const file = positionals[0] ?? '-';
  if (file !== '-' && !existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const input = file === '-' ? process.stdin : createReadStream(file);
  const common = { lines: createInterface({ input, crlfDelay: Infinity }), inputBytes: file === '-' ? undefined : statSync(file).size, progress: new ProgressBar() };
  const report: ImportReport = store.engine === 'postgres' ? await importPgEvents({ ...common, url: store.url }) : await importEvents({ ...common, dataDir: store.dataDir });
  out(
    structured(format, report) ??
      `imported ${report.events} events in ${report.writes} writes (up to resourceVersion ${report.resourceVersion})` +
        `${report.mirrorFacts ? ` and ${report.mirrorFacts} facts of the mirror` : ''} into ${report.database}`,
  );
  return 0;
}
