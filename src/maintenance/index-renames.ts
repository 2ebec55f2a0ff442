// Renames indexes without rebuilding them. SQLite has no ALTER INDEX … RENAME; an index's name is
// only its key in the schema table (the b-tree is found by rootpage, never by name), so changing
// the name column and the name in its CREATE INDEX text, over the same rootpage, table and
// columns, renames it. That is SQLite's own documented procedure for schema changes ALTER TABLE
// cannot make (https://sqlite.org/lang_altertable.html#otheralter): writable_schema on (which
// better-sqlite3's DEFENSIVE mode forbids outside unsafeMode), edit, bump schema_version so every
// other connection (a running server's) reloads the schema before its next statement, reload ours.
import type Database from 'better-sqlite3';

export interface IndexRename {
  from: string;
  to: string;
  /** The index's CREATE statement under its new name: the same table, columns and condition. */
  sql: string;
}

/**
 * Applies `renames` to the schema `schemaName` of `sqlite`, in the caller's transaction (so a
 * crash leaves either every old name or every new one). Refuses a rename whose source is missing
 * or whose target is taken by another object: the schema must stay a set of unique names.
 */
export function renameIndexes(sqlite: Database.Database, schemaName: string, renames: readonly IndexRename[]): void {
  if (!renames.length) return;
  if (!sqlite.inTransaction) throw new Error('renameIndexes runs in the caller’s transaction');
  const master = `${schemaName}.sqlite_master`;
  const names = new Set(sqlite.prepare(`SELECT name FROM ${master}`).pluck().all() as string[]);
  const moving = new Set(renames.map((r) => r.from));
  for (const { from, to } of renames) {
    if (sqlite.prepare(`SELECT count(*) FROM ${master} WHERE type = 'index' AND name = ? AND sql IS NOT NULL`).pluck().get(from) !== 1) {
      throw new Error(`cannot rename index ${from}: it does not exist`);
    }
    if (names.has(to) && !moving.has(to)) throw new Error(`cannot rename index ${from} to ${to}: the name is taken`);
  }
  if (new Set(renames.map((r) => r.to)).size !== renames.length) throw new Error('two indexes cannot take the same name');
  const version = sqlite.pragma(`${schemaName}.schema_version`, { simple: true }) as number;
  sqlite.unsafeMode(true);
  try {
    sqlite.pragma('writable_schema = ON');
    try {
      // Every row is read before any is written, so a swap of two names cannot hit its own result.
      const rows = renames.map((r) => ({ ...r, rowid: sqlite.prepare(`SELECT rowid FROM ${master} WHERE type = 'index' AND name = ?`).pluck().get(r.from) }));
      const update = sqlite.prepare(`UPDATE ${master} SET name = ?, sql = ? WHERE rowid = ?`);
      for (const r of rows) update.run(r.to, r.sql, r.rowid);
      sqlite.pragma(`${schemaName}.schema_version = ${version + 1}`);
    } finally {
      // RESET also turns writable_schema off and makes this connection parse the schema again.
      sqlite.pragma('writable_schema = RESET');
    }
  } finally {
    sqlite.unsafeMode(false);
  }
  // The edited schema must parse to exactly the renamed indexes, on the tables they had.
  for (const { to, sql } of renames) {
    const row = sqlite.prepare(`SELECT sql FROM ${master} WHERE type = 'index' AND name = ?`).pluck().get(to);
    const columns = sqlite.pragma(`${schemaName}.index_info("${to.replace(/"/g, '""')}")`) as unknown[];
    if (row !== sql || !columns.length) throw new Error(`index ${to} did not take its new name`);
  }
}
