import type Database from 'better-sqlite3';

/** The parts of a better-sqlite3 statement the floor uses, prepared when first run. */
export class LazyStatement {
  private statement?: Database.Statement;
  constructor(
    private readonly db: Database.Database,
    private readonly sql: string,
    private readonly plucked = false,
  ) {}
  pluck(): LazyStatement {
    return new LazyStatement(this.db, this.sql, true);
  }
  private get s(): Database.Statement {
    if (!this.statement) {
      const statement = this.db.prepare(this.sql);
      this.statement = this.plucked ? statement.pluck() : statement;
    }
    return this.statement;
  }
  get(...params: unknown[]): unknown {
    return this.s.get(...params);
  }
  all(...params: unknown[]): unknown[] {
    return this.s.all(...params);
  }
  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.s.iterate(...params);
  }
  run(...params: unknown[]): Database.RunResult {
    return this.s.run(...params);
  }
}
