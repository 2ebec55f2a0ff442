// Compares projection tables on PostgreSQL, live against folded (a temporary or shadow copy), on
// one connection: every column the fold produces, row by row by primary key, differences counted
// in SQL (EXCEPT treats NULLs as equal), the first few read back to describe as SQLite's verify does.
// A stored text (store/stored-text-codec.ts) may hold the same text in other bytes (a row written
// before the encoding, or by another zlib): the rows SQL finds differing in one are read back, a
// page at a time, and compared by the text they hold.
import type { Queryable } from '../../store/postgres/postgres-database';
import { decodeStoredText } from '../../store/stored-text-codec';
import { describeRowDifference, type ProjectionComparison, type RowDifference, type TableComparison } from '../projection-comparison';
import { type ProjectionTable, rowColumns, type RowFoldOptions, storedTextColumns } from '../projection-row-fold';
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
  kube_events: ['namespace', 'name'],
  kube_event_occurrences: ['resource_version'],
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
  const byKey = shape.key.map((k, i) => `"${k}" = $${i + 1}`).join(' AND ');
  const rowIn = async (table: string, key: unknown[]) =>
    (await client.query<Record<string, unknown>>(`SELECT ${cols} FROM ${table} WHERE ${byKey}`, key)).rows[0] as Record<string, unknown> | undefined;
  const stored = storedTextColumns(live);
  const comparison: TableComparison = {
    table: live,
    liveRows: await count(`SELECT 1 FROM ${live}`),
    foldedRows: await count(`SELECT 1 FROM ${folded}`),
    differences: 0,
  };
  const samples: RowDifference[] = [];
  const differs = await count(differing);
  if (!differs) return { comparison, samples };
  // The keys in order, then their rows a page at a time (a key that differs only in a stored
  // text's bytes is no difference).
  await client.query(`CREATE TEMPORARY TABLE differing_keys AS SELECT row_number() OVER (ORDER BY ${keys}) AS n, d.* FROM (${differing}) d`);
  await client.query('CREATE INDEX ON differing_keys (n)');
  try {
    const rowsOf = async (table: string, offset: number) =>
      (
        await client.query<Record<string, unknown>>(
          `SELECT ${shape.key.map((k, i) => `d."${k}" AS "key:${i}"`).join(', ')}, t.* FROM differing_keys d
            LEFT JOIN ${table} t ON ${shape.key.map((k) => `t."${k}" = d."${k}"`).join(' AND ')} WHERE d.n > $1 AND d.n <= $2 ORDER BY d.n`,
          [offset, offset + PAGE],
        )
      ).rows;
    for (let offset = 0; offset < differs; offset += PAGE) {
      const [liveRows, foldedRows] = [await rowsOf(live, offset), await rowsOf(folded, offset)];
      for (let i = 0; i < liveRows.length; i++) {
        const [a, b] = [present(shape.columns, liveRows[i]), present(shape.columns, foldedRows[i])];
        if (a && b && sameRow(shape.columns, stored, a, b)) continue;
        comparison.differences++;
        if (samples.length < maxSamples) {
          const key = shape.key.map((_, k) => liveRows[i][`key:${k}`]);
          samples.push(describeRowDifference(shape, Object.fromEntries(shape.key.map((k, j) => [k, key[j]])), await rowIn(live, key), await rowIn(folded, key)));
        }
      }
    }
  } finally {
    await client.query('DROP TABLE differing_keys');
  }
  return { comparison, samples };
}

/** Differing rows read back per round. */
const PAGE = 1000;

/** A row read through a LEFT JOIN: undefined when the table has none for the key (every column null, the key's included). */
function present(columns: readonly string[], row: Record<string, unknown>): Record<string, unknown> | undefined {
  return columns.some((c) => row[c] !== null) ? row : undefined;
}

function sameRow(columns: readonly string[], stored: readonly string[], a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return columns.every((c) => {
    const [x, y] = [a[c], b[c]];
    if (x instanceof Buffer && y instanceof Buffer) return x.equals(y) || (stored.includes(c) && decodeStoredText(x) === decodeStoredText(y));
    return x === y || (x !== null && y !== null && String(x) === String(y));
  });
}
