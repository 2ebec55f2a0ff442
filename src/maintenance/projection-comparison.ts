// Compares projection tables of two schemas on one connection (the live database and a refold
// attached to it), row by row, every column including autoincrement ids (a rebuild reproduces
// them). Differences are counted in SQL; only the first few are read back to describe. A stored
// text (store/stored-text-codec.ts) is compared by the text it holds: a row written before the
// encoding, or by another zlib, holds the same text in other bytes.
import type Database from 'better-sqlite3';
import { decodeStoredText, type StoredText } from '../store/stored-text-codec';
import { type JsonDifference, jsonDifferences } from './json-difference';
import { storedTextColumns } from './projection-row-fold';
import { columnList, tableShape, type TableShape } from './table-shape';

export type DifferenceKind = 'changed' | 'missing' | 'unexpected' | 'dangling';

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
  /**
   * changed: both have the key, some column differs; missing: only the fold has it; unexpected: only live has it;
   * dangling: a fact the log cannot rebuild names a write the log does not hold (mirror-facts-verification.ts).
   */
  kind: DifferenceKind;
  columns?: ColumnDifference[];
  /** The whole row for missing, unexpected and dangling rows. */
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

/** The SQL function that reads a stored text, on the comparing connection. */
const STORED_TEXT = 'svctrail_stored_text';

export function compareProjections(sqlite: Database.Database, live: string, folded: string, tables: readonly string[], maxSamples: number): ProjectionComparison {
  sqlite.function(STORED_TEXT, { deterministic: true }, (value: unknown) => (value === null ? null : decodeStoredText(value as StoredText)));
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

/** `x` and `y` (aliases of the two sides) agree on `columns`; stored texts decoded only when their bytes differ. */
function sameColumns(shape: TableShape, columns: readonly string[]): string {
  const stored = new Set(storedTextColumns(shape.table));
  return columns.map((c) => (stored.has(c) ? `(x."${c}" IS y."${c}" OR ${STORED_TEXT}(x."${c}") IS ${STORED_TEXT}(y."${c}"))` : `x."${c}" IS y."${c}"`)).join(' AND ');
}

/**
 * The keys of rows that differ between the same table in two schemas (changed or only in `a`,
 * then only in `b`): one walk of each side in key order, seeking the other side by its key
 * (EXCEPT would sort both sides, whole rows, into temporary b-trees).
 */
function differingKeySelects(shape: TableShape, a: string, b: string, select: (alias: string) => string): [string, string] {
  const t = (schema: string) => `${schema}."${shape.table}"`;
  const onKey = sameColumns(shape, shape.key);
  return [
    `SELECT ${select('x')} FROM ${t(a)} x WHERE NOT EXISTS (SELECT 1 FROM ${t(b)} y WHERE ${onKey} AND ${sameColumns(shape, shape.columns)})`,
    `SELECT ${select('y')} FROM ${t(b)} y WHERE NOT EXISTS (SELECT 1 FROM ${t(a)} x WHERE ${onKey})`,
  ];
}

/** How many primary keys have differing rows between the same table in two schemas. */
function countDifferingKeys(sqlite: Database.Database, shape: TableShape, a: string, b: string): number {
  return differingKeySelects(shape, a, b, () => 'count(*)')
    .map((sql) => sqlite.prepare(sql).pluck().get() as number)
    .reduce((x, y) => x + y, 0);
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
      .prepare(`SELECT * FROM (${differingKeySelects(shape, live, folded, (alias) => shape.key.map((k) => `${alias}."${k}" AS "${k}"`).join(', ')).join(' UNION ')}) ORDER BY ${keys} LIMIT ?`)
      .raw()
      .all(maxSamples) as unknown[][];
    for (const key of keyRows) samples.push(describeRowDifference(shape, Object.fromEntries(shape.key.map((k, i) => [k, key[i]])), rowIn(live, key), rowIn(folded, key)));
  }
  return { table, samples };
}

/** One differing row described (both engines' verify). */
export function describeRowDifference(shape: TableShape, key: Record<string, unknown>, live?: Record<string, unknown>, folded?: Record<string, unknown>): RowDifference {
  const readable = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([c, v]) => [c, Buffer.isBuffer(v) ? decodeStoredText(v) : v]));
  if (!live) return { table: shape.table, key, kind: 'missing', row: readable(folded!) };
  if (!folded) return { table: shape.table, key, kind: 'unexpected', row: readable(live) };
  const columns: ColumnDifference[] = [];
  const stored = new Set(storedTextColumns(shape.table));
  const read = (column: string, value: unknown) => (stored.has(column) && value !== null && value !== undefined ? decodeStoredText(value as StoredText) : value);
  for (const column of shape.columns) {
    const [a, b] = [read(column, live[column]), read(column, folded[column])];
    if (a === b) continue;
    const fields = typeof a === 'string' && typeof b === 'string' ? jsonDifferences(a, b) : undefined;
    columns.push({ column, live: a, folded: b, ...(fields ? { fields } : {}) });
  }
  return { table: shape.table, key, kind: 'changed', columns };
}
