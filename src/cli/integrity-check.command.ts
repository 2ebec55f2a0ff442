// `svctrail integrity-check [--data-dir DIR] [--quick] [-o json|yaml]`: SQLite's full check of
// the database file, on request. Start-up only checks the header, the schema and the log's tail
// (see store/database.ts): reading every page of a 2 GB store would delay every restart.
import { parseArgs } from 'node:util';
import { existingDataDirectory } from '../maintenance/data-directory';
import { checkIntegrity, openDatabase } from '../store/database';
import { DEFAULT_DATA_DIR } from '../tls/data-dir';
import { parseOutputFormat, structured } from './output-format';

export const INTEGRITY_CHECK_USAGE = `usage: svctrail integrity-check [--data-dir DIR] [--quick] [-o json|yaml]
  Runs SQLite's PRAGMA integrity_check on the database (every page, index entry and constraint;
  --quick: quick_check, which skips comparing indexes with their tables). Reads only, from one
  snapshot: a running server keeps serving and writing. Prints "ok" or each problem found (up
  to 100) and exits 1 if there is any.`;

export interface IntegrityReport {
  database: string;
  check: 'integrity_check' | 'quick_check';
  ok: boolean;
  problems: string[];
}

export async function runIntegrityCheck(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string', default: DEFAULT_DATA_DIR },
      quick: { type: 'boolean', default: false },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    out(INTEGRITY_CHECK_USAGE);
    return 0;
  }
  const format = parseOutputFormat(values.output);
  const dir = existingDataDirectory(values['data-dir']);
  const handle = openDatabase({ path: dir.databasePath, migrationsFolder: dir.migrationsFolder, synchronous: 'NORMAL', readonly: true });
  let report: IntegrityReport;
  try {
    const problems = checkIntegrity(handle, values.quick ? 'quick' : 'full');
    report = { database: dir.databasePath, check: values.quick ? 'quick_check' : 'integrity_check', ok: problems.length === 0, problems };
  } finally {
    handle.close();
  }
  out(structured(format, report) ?? (report.ok ? `ok: ${report.database} passed ${report.check}` : [`FAILED: ${report.database} failed ${report.check}:`, ...report.problems].join('\n')));
  return report.ok ? 0 : 1;
}
