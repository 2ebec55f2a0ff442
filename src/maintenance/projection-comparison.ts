// Compares projection tables of two schemas on one connection (the live database and a refold
// attached to it), row by row, every column including autoincrement ids (a rebuild reproduces
// them). Differences are counted in SQL; only the first few are read back to describe.
import type Database from 'better-sqlite3';
import { type JsonDifference, jsonDifferences } from './json-difference';
import { columnList, tableShape, type TableShape } from './table-shape';

export type DifferenceKind = 'changed' | 'missing' | 'unexpected';

export interface ColumnDifference {
  column: string;
  live: unknown;
  folded: unknown;
  /** For JSON columns: the fields that differ. */
  fields?: JsonDifference[];
}

export interface RowDifference {
  table: string;
  /** Primary key of the row. */
  key: Record<string, unknown>;
  /** changed: both have the key, some column differs; missing: only the fold has it; unexpected: only live has it. */
  kind: DifferenceKind;
  columns?: ColumnDifference[];
  /** The whole row for missing and unexpected rows. */
  row?: Record<string, unknown>;
}

export interface TableComparison {
  table: string;
  liveRows: number;
  foldedRows: number;
  /** Number of primary keys whose rows differ. */
  differences: number;
}

export interface ProjectionComparison {
  tables: TableComparison[];
  differences: number;
  /** At most `maxSamples` described differences, in table and key order. */
  samples: RowDifference[];
}

export function compareProjections(sqlite: Database.Database, live: string, folded: string, tables: readonly string[], maxSamples: number): ProjectionComparison {
  const result: ProjectionComparison = { tables: [], differences: 0, samples: [] };
  for (const table of tables) {
    const shape = tableShape(sqlite, folded, table);
    const comparison = compareTable(sqlite, shape, live, folded, Math.max(0, maxSamples - result.samples.length));
    result.tables.push(comparison.table);
    result.differences += comparison.table.differences;
    result.samples.push(...comparison.samples);
  }
  return result;
}

/** Keys of rows present on one side and not identical on the other (a SELECT). */
function differingKeys(shape: TableShape, a: string, b: string): string {
  const cols = columnList(shape);
  const keys = shape.key.map((k) => `"${k}"`).join(', ');
  return `SELECT ${keys} FROM (SELECT ${cols} FROM ${a}.${shape.table} EXCEPT SELECT ${cols} FROM ${b}.${shape.table})
    UNION SELECT ${keys} FROM (SELECT ${cols} FROM ${b}.${shape.table} EXCEPT SELECT ${cols} FROM ${a}.${shape.table})`;
}

/**
 * How many primary keys have differing rows between the same table in two schemas: one walk of
 * each side in key order, seeking the other side by its key (EXCEPT would sort both sides,
 * whole rows, into temporary b-trees).
 */
export function countDifferingKeys(sqlite: Database.Database, shape: TableShape, a: string, b: string): number {
  const same = (x: string, y: string, columns: readonly string[]) => columns.map((c) => `${x}."${c}" IS ${y}."${c}"`).join(' AND ');
  const t = (schema: string) => `${schema}."${shape.table}"`;
  const onKey = same('x', 'y', shape.key);
  const changedOrOnlyInA = sqlite
    .prepare(`SELECT count(*) FROM ${t(a)} x WHERE NOT EXISTS (SELECT 1 FROM ${t(b)} y WHERE ${onKey} AND ${same('x', 'y', shape.columns)})`)
    .pluck()
    .get() as number;
  const onlyInB = sqlite
    .prepare(`SELECT count(*) FROM ${t(b)} y WHERE NOT EXISTS (SELECT 1 FROM ${t(a)} x WHERE ${onKey})`)
    .pluck()
    .get() as number;
  return changedOrOnlyInA + onlyInB;
}

function compareTable(sqlite: Database.Database, shape: TableShape, live: string, folded: string, maxSamples: number) {
  const cols = columnList(shape);
  const keys = shape.key.map((k) => `"${k}"`).join(', ');
  const count = (schema: string) => sqlite.prepare(`SELECT count(*) FROM ${schema}.${shape.table}`).pluck().get() as number;
  const differences = countDifferingKeys(sqlite, shape, live, folded);
  const table: TableComparison = { table: shape.table, liveRows: count(live), foldedRows: count(folded), differences };
  const samples: RowDifference[] = [];
  if (differences && maxSamples) {
    const byKey = shape.key.map((k) => `"${k}" IS ?`).join(' AND ');
    const rowIn = (schema: string, key: unknown[]) => sqlite.prepare(`SELECT ${cols} FROM ${schema}.${shape.table} WHERE ${byKey}`).get(...key) as Record<string, unknown> | undefined;
    const keyRows = sqlite
      .prepare(`SELECT * FROM (${differingKeys(shape, live, folded)}) ORDER BY ${keys} LIMIT ?`)
      .raw()
      .all(maxSamples) as unknown[][];
    for (const key of keyRows) samples.push(describeRowDifference(shape, Object.fromEntries(shape.key.map((k, i) => [k, key[i]])), rowIn(live, key), rowIn(folded, key)));
  }
  return { table, samples };
}

/** One differing row described (both engines' verify). */
export function describeRowDifference(shape: TableShape, key: Record<string, unknown>, live?: Record<string, unknown>, folded?: Record<string, unknown>): RowDifference {
  if (!live) return { table: shape.table, key, kind: 'missing', row: folded };
  if (!folded) return { table: shape.table, key, kind: 'unexpected', row: live };
  const columns: ColumnDifference[] = [];
  for (const column of shape.columns) {
    const [a, b] = [live[column], folded[column]];
    if (a === b) continue;
    const fields = typeof a === 'string' && typeof b === 'string' ? jsonDifferences(a, b) : undefined;
    columns.push({ column, live: a, folded: b, ...(fields ? { fields } : {}) });
  }
  return { table: shape.table, key, kind: 'changed', columns };
}
