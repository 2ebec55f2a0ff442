// Bulk inserts on PostgreSQL: rows of one table as one INSERT … SELECT FROM unnest(arrays), one
// array parameter per column, so a batch of thousands of rows is one round trip and one plan
// (no limit of 65535 parameters, no statement text growing with the batch).
import type { Queryable } from '../../store/postgres/postgres-database';
import type { ColumnType, Row } from '../projection-row-fold';

const BATCH = 5000;

export async function insertRows(client: Queryable, table: string, columns: readonly (readonly [string, ColumnType])[], rows: readonly Row[]): Promise<void> {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const statement = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const values = columns.map((_, c) => batch.map((row) => row[c]));
    await client.query(statement, values);
  }
}
