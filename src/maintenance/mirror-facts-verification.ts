// What the log can vouch for of a mirror's facts (mirror-facts.ts), which it cannot rebuild: each
// observation names a write of the log, and each audit actor an observed write. Verify reports a
// fact that does not as a difference of its table ("dangling"); import refuses an input holding one.
import type { SqlReader } from '../store/sql/sql-reader';
import { MaintenanceError } from './maintenance-error';
import { keptMirrorTables } from './mirror-facts';
import type { ProjectionComparison, RowDifference, TableComparison } from './projection-comparison';

const CHECKS = [
  {
    table: 'observed_writes',
    what: 'observedWrite',
    refusal: 'names no write of the log',
    dangling: `FROM observed_writes o WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.position = o.resource_version AND e.resource_version = o.resource_version)`,
    columns: 'o.resource_version AS "resourceVersion", o.source_resource_version AS "sourceResourceVersion", o.via AS via, o.observed_at AS "observedAt"',
  },
  {
    table: 'audit_actors',
    what: 'auditActor',
    refusal: 'names no write the mirror observed',
    dangling: `FROM audit_actors a WHERE NOT EXISTS (SELECT 1 FROM observed_writes o WHERE o.resource_version = a.resource_version)`,
    columns: 'a.resource_version AS "resourceVersion", a.audit_id AS "auditID", a."user" AS "user", a.identified_at AS "identifiedAt"',
  },
] as const;

interface DanglingFacts {
  tables: TableComparison[];
  differences: number;
  samples: RowDifference[];
}

/** The facts naming nothing the log holds: every table's counts, and the first `maxSamples` of them. Nothing for a store that never mirrored. */
async function danglingFacts(db: SqlReader, maxSamples: number): Promise<DanglingFacts> {
  const kept = await keptMirrorTables(db);
  const out: DanglingFacts = { tables: [], differences: 0, samples: [] };
  const checks = CHECKS.filter((c) => kept.tables.has(c.table));
  const count = async (sql: string) => Number((await db.one<{ n: number | string }>(`SELECT count(*) AS n ${sql}`))!.n);
  const rows = await Promise.all(checks.map((c) => count(`FROM ${c.table}`)));
  if (rows.every((n) => n === 0)) return out;
  for (const [i, check] of checks.entries()) {
    const dangling = rows[i] ? await count(check.dangling) : 0;
    out.tables.push({ table: check.table, liveRows: rows[i], foldedRows: rows[i] - dangling, differences: dangling });
    out.differences += dangling;
    const room = maxSamples - out.samples.length;
    if (!dangling || room <= 0) continue;
    for (const row of await db.all<Record<string, unknown>>(`SELECT ${check.columns} ${check.dangling} ORDER BY 1 LIMIT $1`, [room])) {
      out.samples.push({ table: check.table, key: { resource_version: Number(row.resourceVersion) }, kind: 'dangling', row });
    }
  }
  return out;
}

/** Verify's check: the mirror's tables as more lines of the comparison. */
export async function checkMirrorFacts(db: SqlReader, comparison: ProjectionComparison, maxDifferences: number): Promise<ProjectionComparison> {
  const found = await danglingFacts(db, Math.max(0, maxDifferences - comparison.samples.length));
  return { tables: [...comparison.tables, ...found.tables], differences: comparison.differences + found.differences, samples: [...comparison.samples, ...found.samples] };
}

/** Import's check, once every line is in: the first fact naming nothing refuses the input. */
export async function refuseDanglingFacts(db: SqlReader): Promise<void> {
  const [first] = (await danglingFacts(db, 1)).samples;
  if (!first) return;
  const check = CHECKS.find((c) => c.table === first.table)!;
  throw new MaintenanceError(`the ${check.what} of resourceVersion ${String(first.key.resource_version)} ${check.refusal}: ${JSON.stringify(first.row)}`);
}
