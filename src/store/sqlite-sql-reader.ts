// The SQL port on the embedded engine: statements prepared once per text (the handle's cache),
// run synchronously by better-sqlite3 and answered as settled promises. `$1`, `$2`… are SQLite
// named parameters; they are bound from one small object per call, the row objects are
// better-sqlite3's own (no copy).
import type Database from 'better-sqlite3';
import type { DatabaseHandle } from './database';
import { eventsStoodIn } from './older-store-stand-ins';
import { type ImmediateSqlReader, SQLITE_DIALECT, SQLITE_UNHINTED_DIALECT, type SqlDialect, type SqlReader } from './sql/sql-reader';

/** Statement texts whose run form is kept (as many as the handle's statement cache). */
const MAX_FORMS = 256;

/** $1…$n bound as SQLite named parameters 1…n. */
export function bound(params: readonly unknown[]): Record<number, unknown> {
  const named: Record<number, unknown> = {};
  for (let i = 0; i < params.length; i++) named[i + 1] = params[i];
  return named;
}

/** Whether a statement's placeholders are $1…$n, each once and in order (then `?` binds them by position). */
function inOrder(sql: string, count: number): boolean {
  const placeholders = sql.match(/\$\d+/g) ?? [];
  return placeholders.length === count && placeholders.every((p, i) => p === `$${i + 1}`);
}

/** How a statement text runs: as `?` bound by position when its placeholders allow (cheaper than by name), else as written. */
function runForm(sql: string, count: number): { sql: string; positional: boolean } {
  const positional = inOrder(sql, count);
  return { sql: positional ? sql.replace(/\$\d+/g, '?') : sql, positional };
}

export class ImmediateSqliteReader implements ImmediateSqlReader {
  private readonly plucked = new Map<string, { statement: Database.Statement; positional: boolean }>();

  /** `prepare`: a statement of the reader's own, for the plucked single values (`value`). */
  constructor(
    private readonly statement: (sql: string) => Database.Statement,
    private readonly prepare: (sql: string) => Database.Statement = statement,
  ) {}

  one<T>(sql: string, params?: readonly unknown[]): T | undefined {
    const statement = this.statement(sql);
    return (params?.length ? statement.get(bound(params)) : statement.get()) as T | undefined;
  }

  /**
   * The hot reads (GET): no row object, and parameters bound by position (as `?`) when they
   * allow it, which costs better-sqlite3 less than binding them by name.
   */
  value<T>(sql: string, params: readonly unknown[] = []): T | undefined {
    let entry = this.plucked.get(sql);
    if (!entry) {
      const form = runForm(sql, params.length);
      entry = { statement: this.prepare(form.sql).pluck(), positional: form.positional };
      this.plucked.set(sql, entry);
    }
    return (entry.positional ? entry.statement.get(...params) : entry.statement.get(bound(params))) as T | undefined;
  }
}

export class SqliteSqlReader implements SqlReader {
  readonly dialect: SqlDialect;
  readonly immediate: ImmediateSqlReader;

  constructor(private readonly handle: Pick<DatabaseHandle, 'statement' | 'sqlite'>) {
    this.dialect = eventsStoodIn(handle.sqlite) ? SQLITE_UNHINTED_DIALECT : SQLITE_DIALECT;
    this.immediate = new ImmediateSqliteReader(
      (sql) => handle.statement(sql),
      (sql) => handle.sqlite.prepare(sql),
    );
  }

  /** Each statement text's form as run: `?` where its placeholders allow binding by position (cheaper than by name). */
  private readonly runAs = new Map<string, { sql: string; positional: boolean }>();

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    let form = this.runAs.get(sql);
    if (!form) {
      form = runForm(sql, params.length);
      // Texts are assembled from fixed clauses, a bounded set; bounded here all the same.
      if (this.runAs.size >= MAX_FORMS) this.runAs.clear();
      this.runAs.set(sql, form);
    }
    const statement = this.handle.statement(form.sql);
    return (form.positional ? statement.all(...params) : statement.all(bound(params))) as T[];
  }

  async one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    return this.immediate.one<T>(sql, params);
  }
}
