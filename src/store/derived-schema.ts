// The secondary indexes and triggers of a set of tables, as SQLite stores them: bulk loads drop
// them, fill the tables, and create them again (an index built once from the rows is far cheaper
// than one kept up to date through every insert).
import type Database from 'better-sqlite3';

export interface DerivedSchema {
  type: 'index' | 'trigger';
  name: string;
  sql: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Secondary indexes, then triggers, of `tables`, in creation order (not the primary keys). */
export function derivedSchema(sqlite: Database.Database, tables: readonly string[]): DerivedSchema[] {
  return sqlite
    .prepare(
      `SELECT type, name, sql FROM main.sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
         AND tbl_name IN (SELECT value FROM json_each(?)) ORDER BY type = 'trigger', rowid`,
    )
    .all(JSON.stringify(tables)) as DerivedSchema[];
}

export function dropDerived(sqlite: Database.Database, derived: readonly DerivedSchema[]): void {
  for (const d of derived) sqlite.exec(`DROP ${d.type.toUpperCase()} ${quote(d.name)}`);
}

export function createDerived(sqlite: Database.Database, derived: readonly DerivedSchema[]): void {
  for (const d of derived) sqlite.exec(d.sql);
}
