// `svctrail verify [--data-dir DIR | --storage postgres://…] [--max-differences N] [-o json|yaml]`
import { parseArgs } from 'node:util';
import type { RowDifference } from '../maintenance/projection-comparison';
import { verifyPgProjections } from '../maintenance/postgres/pg-projection-verifier';
import { verifyProjections } from '../maintenance/projection-verifier';
import { parseOutputFormat, structured, table } from './output-format';
import { ProgressBar } from './progress-bar';
import { commandStore, STORAGE_USAGE } from './storage-option';
import { UsageError } from './usage-error';

export const VERIFY_USAGE = `usage: svctrail verify [--data-dir DIR | --storage postgres://…] [--max-differences N] [-o json|yaml]
  Refolds the whole event log into a scratch database (in DIR, removed afterwards) and compares
  every row of every projection table with the live one, autoincrement ids included. Reads the
  live database read-only from one snapshot, so a running server may keep writing. Prints each
  difference (the first N, default 20; all are counted) and exits 1 if there is any. On
  PostgreSQL the log is folded into temporary tables, in one snapshot with the live tables.
${STORAGE_USAGE}`;

export async function runVerify(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      storage: { type: 'string' },
      'max-differences': { type: 'string', default: '20' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    out(VERIFY_USAGE);
    return 0;
  }
  const format = parseOutputFormat(values.output);
  const max = values['max-differences'];
  if (!/^\d+$/.test(max)) throw new UsageError(`--max-differences must be a non-negative integer, not "${max}"`);
  const store = commandStore({ storage: values.storage, dataDir: values['data-dir'] }, process.env.SVCTRAIL_STORAGE);
  const common = { maxDifferences: Number(max), progress: new ProgressBar() };
  const report = store.engine === 'postgres' ? await verifyPgProjections({ ...common, url: store.url }) : await verifyProjections({ ...common, dataDir: store.dataDir });
  const text = structured(format, report);
  if (text !== undefined) {
    out(text);
  } else {
    out(
      table(
        ['TABLE', 'LIVE ROWS', 'FOLDED ROWS', 'DIFFERENCES'],
        report.tables.map((t) => [t.table, t.liveRows, t.foldedRows, t.differences]),
      ),
    );
    if (report.samples.length) out('');
    for (const difference of report.samples) out(describeDifference(difference));
    if (report.differences > report.samples.length) out(`… and ${report.differences - report.samples.length} more (--max-differences)`);
    out(
      `${report.differences ? 'FAILED' : 'OK'}: ${report.events} events in ${report.writes} writes up to resourceVersion ${report.resourceVersion}, ` +
        `${report.differences} difference${report.differences === 1 ? '' : 's'}`,
    );
  }
  return report.differences ? 1 : 0;
}

function describeDifference(d: RowDifference): string {
  const key = Object.entries(d.key)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  const head = `${d.table} ${key}:`;
  if (d.kind === 'missing') return `${head} missing from the live table (the log produces ${short(d.row)})`;
  if (d.kind === 'unexpected') return `${head} in the live table but not produced by the log: ${short(d.row)}`;
  if (d.kind === 'dangling') return `${head} names no ${d.table === 'audit_actors' ? 'observed write' : 'write of the log'}: ${short(d.row)}`;
  const columns = (d.columns ?? []).map((c) =>
    c.fields ? c.fields.map((f) => `${c.column}${f.path}: live ${short(f.live)}, log ${short(f.folded)}`).join('; ') : `${c.column}: live ${short(c.live)}, log ${short(c.folded)}`,
  );
  return `${head} differs — ${columns.join('; ')}`;
}

function short(value: unknown): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
