// A mirror's facts beside its log (observed_writes, audit_actors, pending_audit_events,
// mirror_source): what the log cannot rebuild, so every copy of a store carries them as they
// are. Here: what each fact means (the export's words, not the tables' layout), which of them
// belong to a window of the log, and their rows, read from either engine and written back.
import type { AuditedWrite } from '../domain/mirror/audited-write';
import { SqlParams, type SqlDialect, type SqlReader } from '../store/sql/sql-reader';
import type { ColumnType, Row } from './projection-row-fold';

/** The cluster the store records, and where each of its watches resumes (null: it lists first). */
export interface MirrorSourceFact {
  clusterUid: string;
  server: string;
  resumeFrom: { services: string | null; events: string | null };
  /** When a resume point last moved. */
  updatedAt: string;
}

/** Where the write at `resourceVersion` came from, as the history's `source` shows it. */
export interface ObservedWriteFact {
  resourceVersion: number;
  source: { resourceVersion: string; observedAt: string; via: string };
}

/** Who made the write at `resourceVersion`, as its audit event told it, and when svctrail learned it. */
export interface AuditActorFact {
  resourceVersion: number;
  auditID: string;
  verb: string;
  user: string;
  groups: string[];
  userAgent: string;
  sourceIPs: string[];
  requestReceivedTimestamp: string;
  identifiedAt: string;
}

/** An audit event received before its write was recorded, still waiting for it. */
export interface PendingAuditEventFact {
  receivedAt: string;
  write: AuditedWrite;
}

/** One fact, as one export line holds it. */
export type MirrorFact = { mirrorSource: MirrorSourceFact } | { observedWrite: ObservedWriteFact } | { auditActor: AuditActorFact } | { pendingAuditEvent: PendingAuditEventFact };
export type MirrorFactKind = 'mirrorSource' | 'observedWrite' | 'auditActor' | 'pendingAuditEvent';

/** The kinds in the order an export lists them. */
export const MIRROR_FACT_KINDS: readonly MirrorFactKind[] = ['mirrorSource', 'observedWrite', 'auditActor', 'pendingAuditEvent'];

/** The tables, their columns in row order, and the key a table is read in order of. */
export const MIRROR_FACT_TABLES = {
  mirror_source: {
    kind: 'mirrorSource',
    key: 'id',
    columns: [
      ['id', 'bigint'],
      ['cluster_uid', 'text'],
      ['server', 'text'],
      ['resource_version', 'text'],
      ['updated_at', 'text'],
      ['events_resource_version', 'text'],
    ],
  },
  observed_writes: {
    kind: 'observedWrite',
    key: 'resource_version',
    columns: [
      ['resource_version', 'bigint'],
      ['source_resource_version', 'text'],
      ['via', 'text'],
      ['observed_at', 'text'],
    ],
  },
  audit_actors: {
    kind: 'auditActor',
    key: 'resource_version',
    columns: [
      ['resource_version', 'bigint'],
      ['audit_id', 'text'],
      ['user', 'text'],
      ['groups', 'text'],
      ['user_agent', 'text'],
      ['source_ips', 'text'],
      ['verb', 'text'],
      ['request_received_at', 'text'],
      ['identified_at', 'text'],
    ],
  },
  pending_audit_events: {
    kind: 'pendingAuditEvent',
    key: 'audit_id',
    columns: [
      ['audit_id', 'text'],
      ['namespace', 'text'],
      ['name', 'text'],
      ['source_resource_version', 'text'],
      ['write', 'text'],
      ['received_at', 'text'],
    ],
  },
} as const satisfies Record<string, { kind: MirrorFactKind; key: string; columns: readonly (readonly [string, ColumnType])[] }>;

export type MirrorFactTable = keyof typeof MIRROR_FACT_TABLES;
export const MIRROR_FACT_TABLE_NAMES = Object.keys(MIRROR_FACT_TABLES) as MirrorFactTable[];

/**
 * Which facts a copy of the log holds. Each write's observation and audit actor go with the write
 * (`after` < resourceVersion <= `through`). A copy cut at a point (`cut`: export --until, replay
 * --until) is the store as it was then: an actor svctrail learned after `cut.knownAt` was not
 * known yet, and the mirror's working state (resume points, audit events waiting for their write)
 * is not carried, since the store held other values at the point: mirrored again, it lists first.
 */
export interface MirrorFactWindow {
  after: number;
  through: number;
  cut?: { knownAt: string };
}

/**
 * The tables an old SQLite store, read unmigrated, lacks: mirror_source and observed_writes came
 * with migration 0008, the audit tables with 0009, the Events' resume point with 0013.
 */
export interface KeptMirrorTables {
  tables: Set<MirrorFactTable>;
  eventsResumePoint: boolean;
}

const ALL_KEPT: KeptMirrorTables = { tables: new Set(MIRROR_FACT_TABLE_NAMES), eventsResumePoint: true };

/** The presence query of an unmigrated SQLite store (null on PostgreSQL: opened migrated). */
export function keptMirrorTablesSql(dialect: SqlDialect): string | null {
  if (dialect.name === 'postgres') return null;
  const names = MIRROR_FACT_TABLE_NAMES.map((t) => `'${t}'`).join(', ');
  return `SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN (${names})
    UNION ALL SELECT 'events_resource_version' AS name FROM pragma_table_info('mirror_source') WHERE name = 'events_resource_version'`;
}

export function keptMirrorTablesOf(names: readonly string[] | null): KeptMirrorTables {
  if (names === null) return ALL_KEPT;
  return { tables: new Set(MIRROR_FACT_TABLE_NAMES.filter((t) => names.includes(t))), eventsResumePoint: names.includes('events_resource_version') };
}

export async function keptMirrorTables(db: SqlReader): Promise<KeptMirrorTables> {
  const sql = keptMirrorTablesSql(db.dialect);
  return keptMirrorTablesOf(sql === null ? null : (await db.all<{ name: string }>(sql)).map((r) => r.name));
}

/** Text keys ordered by their bytes on both engines (PostgreSQL's default collation is the locale's). */
const byteOrder = (dialect: SqlDialect) => (dialect.name === 'postgres' ? ' COLLATE "C"' : '');

/**
 * The rows of `table` a window holds, in row order (a cut's mirror_source without its resume
 * points), by its key; `page`: those after a key, at most `limit`. Null: the window holds none.
 */
export function mirrorFactRowsQuery(
  table: MirrorFactTable,
  window: MirrorFactWindow,
  kept: KeptMirrorTables,
  dialect: SqlDialect,
  page?: { afterKey: unknown; limit: number },
): { sql: string; params: unknown[] } | null {
  if (!kept.tables.has(table) || window.through === 0) return null;
  if (table === 'pending_audit_events' && window.cut) return null;
  const p = new SqlParams();
  const spec = MIRROR_FACT_TABLES[table];
  const key = `${spec.key}${spec.key === 'audit_id' ? byteOrder(dialect) : ''}`;
  const select = spec.columns.map(([column]) => {
    if (table === 'mirror_source') {
      if (column === 'events_resource_version' && (window.cut || !kept.eventsResumePoint)) return `NULL AS "${column}"`;
      if (column === 'resource_version' && window.cut) return `NULL AS "${column}"`;
      if (column === 'updated_at' && window.cut) return `CAST(${p.param(window.cut.knownAt)} AS TEXT) AS "${column}"`;
    }
    return `"${column}"`;
  });
  const where: string[] = [];
  if (table === 'observed_writes' || table === 'audit_actors') where.push(`resource_version > ${p.param(window.after)}`, `resource_version <= ${p.param(window.through)}`);
  if (table === 'audit_actors' && window.cut) where.push(`identified_at <= ${p.param(window.cut.knownAt)}`);
  if (page && page.afterKey !== undefined) where.push(`${key} > ${p.param(page.afterKey)}`);
  const limit = page ? ` LIMIT ${p.param(page.limit)}` : '';
  const sql = `SELECT ${select.join(', ')} FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${key}${limit}`;
  return { sql, params: p.values };
}

const PAGE = 5000;

/** The facts a window holds, read in the caller's snapshot, a page at a time, in export order. */
export async function* mirrorFactPages(db: SqlReader, window: MirrorFactWindow): AsyncGenerator<MirrorFact[]> {
  const kept = await keptMirrorTables(db);
  for (const table of MIRROR_FACT_TABLE_NAMES) {
    const columns = MIRROR_FACT_TABLES[table].columns.map(([column]) => column);
    const keyIndex = columns.indexOf(MIRROR_FACT_TABLES[table].key);
    for (let afterKey: unknown = undefined; ;) {
      const query = mirrorFactRowsQuery(table, window, kept, db.dialect, { afterKey, limit: PAGE });
      if (!query) break;
      const rows = (await db.all<Record<string, unknown>>(query.sql, query.params)).map((r) => columns.map((c) => r[c]));
      if (rows.length) yield rows.map((row) => mirrorFactOf(table, row));
      if (rows.length < PAGE) break;
      afterKey = rows[rows.length - 1][keyIndex];
    }
  }
}

/** A table's row (in MIRROR_FACT_TABLES' column order) as the fact it records. */
export function mirrorFactOf(table: MirrorFactTable, row: Row): MirrorFact {
  const text = (i: number) => row[i] as string;
  const nullable = (i: number) => (row[i] ?? null) as string | null;
  switch (table) {
    case 'mirror_source':
      return { mirrorSource: { clusterUid: text(1), server: text(2), resumeFrom: { services: nullable(3), events: nullable(5) }, updatedAt: text(4) } };
    case 'observed_writes':
      return { observedWrite: { resourceVersion: Number(row[0]), source: { resourceVersion: text(1), observedAt: text(3), via: text(2) } } };
    case 'audit_actors':
      return {
        auditActor: {
          resourceVersion: Number(row[0]),
          auditID: text(1),
          verb: text(6),
          user: text(2),
          groups: JSON.parse(text(3)) as string[],
          userAgent: text(4),
          sourceIPs: JSON.parse(text(5)) as string[],
          requestReceivedTimestamp: text(7),
          identifiedAt: text(8),
        },
      };
    case 'pending_audit_events':
      return { pendingAuditEvent: { receivedAt: text(5), write: JSON.parse(text(4)) as AuditedWrite } };
  }
}

/** The row a fact is stored as: the inverse of mirrorFactOf (JSON columns hold what JSON.stringify wrote). */
export function mirrorFactRow(fact: MirrorFact): { table: MirrorFactTable; row: Row } {
  if ('mirrorSource' in fact) {
    const s = fact.mirrorSource;
    return { table: 'mirror_source', row: [1, s.clusterUid, s.server, s.resumeFrom.services, s.updatedAt, s.resumeFrom.events] };
  }
  if ('observedWrite' in fact) {
    const o = fact.observedWrite;
    return { table: 'observed_writes', row: [o.resourceVersion, o.source.resourceVersion, o.source.via, o.source.observedAt] };
  }
  if ('auditActor' in fact) {
    const a = fact.auditActor;
    return {
      table: 'audit_actors',
      row: [a.resourceVersion, a.auditID, a.user, JSON.stringify(a.groups), a.userAgent, JSON.stringify(a.sourceIPs), a.verb, a.requestReceivedTimestamp, a.identifiedAt],
    };
  }
  const { write, receivedAt } = fact.pendingAuditEvent;
  return { table: 'pending_audit_events', row: [write.auditID, write.namespace, write.name, write.sourceResourceVersion, JSON.stringify(write), receivedAt] };
}

/** `INSERT INTO table (…) VALUES ($1, …)` of a table's whole row. */
export function mirrorFactInsert(table: MirrorFactTable): string {
  const columns = MIRROR_FACT_TABLES[table].columns;
  return `INSERT INTO ${table} (${columns.map(([c]) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
}
