// Report output: an aligned table for people (the default), or `-o json|yaml` for programs.
import { stringify as toYaml } from 'yaml';
import { UsageError } from './usage-error';

export type OutputFormat = 'table' | 'json' | 'yaml';

export function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === 'table') return 'table';
  if (value === 'json' || value === 'yaml') return value;
  throw new UsageError(`-o must be json or yaml (or table, the default), not "${value}"`);
}

/** The report as JSON or YAML text, or undefined for the table format. */
export function structured(format: OutputFormat, report: unknown): string | undefined {
  if (format === 'json') return JSON.stringify(report, null, 2);
  if (format === 'yaml') return toYaml(report).trimEnd();
  return undefined;
}

/** Columns padded to their widest cell, separated by three spaces, kubectl style. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('   ')).join('\n');
}
