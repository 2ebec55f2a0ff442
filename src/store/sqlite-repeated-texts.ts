// The ids of repeated texts on SQLite (repeated_texts: an actor's user and groups, a user agent, a field
// manager, each stored once): looked up, and added when new, inside the caller's transaction, so a
// text added by a write that is rolled back goes with it. No id is kept between transactions: a
// look-up is one seek of a small index, and an id read in a transaction that then rolls back
// could name another text later.
import type Database from 'better-sqlite3';

export class SqliteRepeatedTexts {
  private readonly find: Database.Statement;
  private readonly add: Database.Statement;

  constructor(sqlite: Database.Database, schema = 'main') {
    this.find = sqlite.prepare(`SELECT id FROM ${schema}.repeated_texts WHERE text = ?`).pluck();
    this.add = sqlite.prepare(`INSERT INTO ${schema}.repeated_texts (text) VALUES (?)`);
  }

  /** The id of `text`, added when new. */
  idOf(text: string): number {
    const found = this.find.get(text) as number | undefined;
    return found ?? Number(this.add.run(text).lastInsertRowid);
  }
}
