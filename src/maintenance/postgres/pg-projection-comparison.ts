// Compares projection tables on PostgreSQL, live against folded (a temporary or shadow copy), on
// one connection: every column the fold produces, row by row by primary key, differences counted
// in SQL (EXCEPT treats NULLs as equal), the first few read back to describe as SQLite's verify does.
import type { Queryable } from '../../store/postgres/postgres-database';
import { describeRowDifference, type ProjectionComparison, type RowDifference, type TableComparison } from '../projection-comparison';
import { type ProjectionTable, rowColumns, type RowFoldOptions } from '../projection-row-fold';
import type { TableShape } from '../table-shape';
import type { TableNames } from './pg-projection-fold';

export const PROJECTION_KEYS: Record<ProjectionTable, string[]> = {
  services: ['namespace', 'name'],
  service_revisions: ['uid', 'resource_version'],
  revision_facts: ['uid', 'resource_version'],
  service_lifetimes: ['uid'],
  condition_transitions: ['id'],
  ingress_intervals: ['id'],
  allocations: ['kind', 'value'],
};

export async function comparePgProjections(client: Queryable, tables: readonly ProjectionTable[], options: RowFoldOptions, folded: TableNames, maxSamples: number): Promise<ProjectionComparison> {
  const result: ProjectionComparison = { tables: [], differences: 0, samples: [] };
  for (const table of tables) {
    const shape: TableShape = { table, columns: rowColumns(table, options).map(([c]) => c), key: PROJECTION_KEYS[table] };
    const { comparison, samples } = await compareTable(client, shape, folded(table), Math.max(0, maxSamples - result.samples.length));
    result.tables.push(comparison);
    result.differences += comparison.differences;
    result.samples.push(...samples);
  }
  return result;
}

async function compareTable(client: Queryable, shape: TableShape, folded: string, maxSamples: number): Promise<{ comparison: TableComparison; samples: RowDifference[] }> {
  const live = shape.table;
  const cols = shape.columns.map((c) => `"${c}"`).join(', ');
  const keys = shape.key.map((k) => `"${k}"`).join(', ');
  const differing = `SELECT ${keys} FROM (SELECT ${cols} FROM ${live} EXCEPT SELECT ${cols} FROM ${folded}) a
    UNION SELECT ${keys} FROM (SELECT ${cols} FROM ${folded} EXCEPT SELECT ${cols} FROM ${live}) b`;
  const count = async (sql: string) => (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) c`)).rows[0].n;
  const comparison: TableComparison = {
    table: live,
    liveRows: await count(`SELECT 1 FROM ${live}`),
    foldedRows: await count(`SELECT 1 FROM ${folded}`),
    differences: await count(differing),
  };
  const samples: RowDifference[] = [];
  if (comparison.differences && maxSamples) {
    const byKey = shape.key.map((k, i) => `"${k}" = $${i + 1}`).join(' AND ');
    const rowIn = async (table: string, key: unknown[]) =>
      (await client.query<Record<string, unknown>>(`SELECT ${cols} FROM ${table} WHERE ${byKey}`, key)).rows[0] as Record<string, unknown> | undefined;
    const { rows } = await client.query<Record<string, unknown>>(`SELECT * FROM (${differing}) d ORDER BY ${keys} LIMIT ${maxSamples}`);
    for (const keyRow of rows) {
      const key = shape.key.map((k) => keyRow[k]);
      samples.push(describeRowDifference(shape, keyRow, await rowIn(live, key), await rowIn(folded, key)));
    }
  }
  return { comparison, samples };
}
