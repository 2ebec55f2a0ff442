// Columns and primary key of a table as SQLite sees it, so comparisons and copies name every
// column explicitly instead of trusting `SELECT *` column order across two files.
import type Database from 'better-sqlite3';

export interface TableShape {
  table: string;
  columns: string[];
  /** Primary-key columns in key order. */
  key: string[];
}

export function tableShape(sqlite: Database.Database, schema: string, table: string): TableShape {
  const info = sqlite.prepare(`PRAGMA ${schema}.table_info(${table})`).all() as { name: string; pk: number }[];
  if (!info.length) throw new Error(`table ${schema}.${table} does not exist`);
  const key = info
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  return { table, columns: info.map((c) => c.name), key: key.length ? key : ['rowid'] };
}

export const columnList = (shape: TableShape) => shape.columns.map((c) => `"${c}"`).join(', ');
