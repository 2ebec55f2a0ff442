// The schema objects the projections own in a migrated database, read from the database itself
// (so a new projection, index or trigger is swapped without touching this folder), and the DDL
// of their shadow copies: replay builds the new projection in the live file under other names
// and renames it over the old one.
import Database from 'better-sqlite3';

/** Replay's tables, indexes and triggers in the live file carry these prefixes while it runs. */
export const SHADOW_PREFIX = 'replay_shadow_';
export const RETIRED_PREFIX = 'replay_retired_';
export const shadowName = (name: string) => `${SHADOW_PREFIX}${name}`;
export const retiredName = (name: string) => `${RETIRED_PREFIX}${name}`;

export interface SchemaObject {
  name: string;
  /** The table it belongs to (a table's own name for a table). */
  table: string;
  /** Its CREATE statement as the migrations wrote it. */
  sql: string;
}

export interface ProjectionSchema {
  /** The tables the projections write. */
  owners: string[];
  /** Tables the owners' triggers keep in step (the ingress R-tree): never written directly. */
  companions: string[];
  /** owners then companions, with their CREATE statements. */
  tables: SchemaObject[];
  /** Explicit indexes (not the automatic ones of PRIMARY KEY and UNIQUE) on those tables. */
  indexes: SchemaObject[];
  triggers: SchemaObject[];
}

interface MasterRow {
  type: string;
  name: string;
  table: string;
  sql: string | null;
}

export function projectionSchema(sqlite: Database.Database, owners: readonly string[]): ProjectionSchema {
  const rows = sqlite.prepare(`SELECT type, name, tbl_name AS "table", sql FROM main.sqlite_master`).all() as MasterRow[];
  const tableNames = new Set((sqlite.pragma('main.table_list') as { name: string; type: string }[]).filter((t) => t.type === 'table' || t.type === 'virtual').map((t) => t.name));
  const on = (type: string, tables: readonly string[]) => rows.filter((r): r is MasterRow & { sql: string } => r.type === type && r.sql !== null && tables.includes(r.table));
  const companions = [...new Set(on('trigger', owners).flatMap((t) => identifiers(t.sql)))].filter((n) => tableNames.has(n) && !owners.includes(n));
  if (companions.includes('events')) throw new Error('a projection trigger writes the event log; replay would replace it');
  const all = [...owners, ...companions];
  const tables = all.map((name) => {
    const row = rows.find((r) => (r.type === 'table' && r.name === name) || (r.type === 'virtual' && r.name === name));
    if (!row?.sql) throw new Error(`projection table ${name} does not exist`);
    return { name, table: name, sql: row.sql };
  });
  return { owners: [...owners], companions, tables, indexes: on('index', all), triggers: on('trigger', all) };
}

/** The CREATE statements of a projection schema's shadow copy, by kind. */
export interface ShadowSchema {
  tables: string[];
  indexes: string[];
  triggers: string[];
}

/**
 * The statements that create every object of `schema` under its shadow name, as SQLite itself
 * renames them: tables are created and renamed in a scratch in-memory database, which rewrites
 * every reference (index targets, partial-index conditions, trigger bodies); index and trigger
 * names, which a rename keeps, get the prefix in their CREATE header.
 */
export function shadowSchema(schema: ProjectionSchema): ShadowSchema {
  const memory = new Database(':memory:');
  try {
    for (const object of [...schema.tables, ...schema.indexes, ...schema.triggers]) memory.exec(object.sql);
    memory.pragma('legacy_alter_table = OFF');
    for (const table of schema.tables) memory.exec(`ALTER TABLE "${table.name}" RENAME TO "${shadowName(table.name)}"`);
    const sqlOf = (type: string, name: string) => memory.prepare('SELECT sql FROM sqlite_master WHERE type = ? AND name = ?').pluck().get(type, name) as string;
    return {
      tables: schema.tables.map((t) => sqlOf('table', shadowName(t.name))),
      indexes: schema.indexes.map((i) => renameInHeader(sqlOf('index', i.name), 'INDEX', i.name)),
      triggers: schema.triggers.map((t) => renameInHeader(sqlOf('trigger', t.name), 'TRIGGER', t.name)),
    };
  } finally {
    memory.close();
  }
}

/** shadowSchema's statements in creation order: tables, indexes, triggers. */
export function shadowStatements(schema: ProjectionSchema): string[] {
  const shadow = shadowSchema(schema);
  return [...shadow.tables, ...shadow.indexes, ...shadow.triggers];
}

const NAME = String.raw`("(?:[^"]|"")+"|\`[^\`]+\`|\[[^\]]+\]|[\w$]+)`;
const HEADERS = {
  INDEX: new RegExp(String.raw`^(\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?)${NAME}`, 'i'),
  TRIGGER: new RegExp(String.raw`^(\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?)${NAME}`, 'i'),
};

function renameInHeader(sql: string, kind: keyof typeof HEADERS, name: string, newName = shadowName(name)): string {
  const match = HEADERS[kind].exec(sql);
  if (!match || unquote(match[2]) !== name) throw new Error(`cannot find the name of ${kind.toLowerCase()} ${name} in: ${sql}`);
  return `${match[1]}"${newName.replace(/"/g, '""')}"${sql.slice(match[0].length)}`;
}

/** A CREATE INDEX statement with the index's name `name` replaced by `newName` (nothing else changes). */
export const indexSqlNamed = (sql: string, name: string, newName: string) => renameInHeader(sql, 'INDEX', name, newName);

function unquote(token: string): string {
  if (token.startsWith('"')) return token.slice(1, -1).replace(/""/g, '"');
  if (token.startsWith('`') || token.startsWith('[')) return token.slice(1, -1);
  return token;
}

/**
 * Views and triggers outside the projections that name a projection table. A rename would point
 * them at the retired table, which replay then drops, so replay refuses to run while they exist.
 */
export function dependentsOutside(sqlite: Database.Database, schema: ProjectionSchema): string[] {
  const own = new Set(schema.triggers.flatMap((t) => [t.name, shadowName(t.name)]));
  const tables = new Set(schema.tables.map((t) => t.name));
  const rows = sqlite.prepare(`SELECT type, name, sql FROM main.sqlite_master WHERE type IN ('view', 'trigger') AND sql IS NOT NULL`).all() as MasterRow[];
  return rows.filter((r) => !own.has(r.name) && identifiers(r.sql!).some((n) => tables.has(n))).map((r) => `${r.type} ${r.name}`);
}

/** The identifiers a statement mentions (string literals skipped). */
function identifiers(sql: string): string[] {
  const out: string[] = [];
  for (const m of sql.replace(/'(?:[^']|'')*'/g, "''").matchAll(/"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][\w$]*)/g)) {
    out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] ?? m[3] ?? m[4]));
  }
  return out;
}
