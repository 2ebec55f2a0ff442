// The SQL port on the embedded engine: statements prepared once per text (the handle's cache),
// run synchronously by better-sqlite3 and answered as settled promises. `$1`, `$2`… are SQLite
// named parameters; they are bound from one small object per call, the row objects are
// better-sqlite3's own (no copy).
import type Database from 'better-sqlite3';
import type { DatabaseHandle } from './database';
import { ImmediateSqlReader, SQLITE_DIALECT, SqlReader } from './sql/sql-reader';

function bound(params: readonly unknown[]): Record<number, unknown> {
  const named: Record<number, unknown> = {};
  for (let i = 0; i < params.length; i++) named[i + 1] = params[i];
  return named;
}

class ImmediateSqliteReader implements ImmediateSqlReader {
  constructor(private readonly statement: (sql: string) => Database.Statement) {}

  one<T>(sql: string, params?: readonly unknown[]): T | undefined {
    const statement = this.statement(sql);
    return (params?.length ? statement.get(bound(params)) : statement.get()) as T | undefined;
  }
}

export class SqliteSqlReader implements SqlReader {
  readonly dialect = SQLITE_DIALECT;
  readonly immediate: ImmediateSqlReader;

  constructor(private readonly handle: Pick<DatabaseHandle, 'statement'>) {
    this.immediate = new ImmediateSqliteReader((sql) => handle.statement(sql));
  }

  async all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    const statement = this.handle.statement(sql);
    return (params?.length ? statement.all(bound(params)) : statement.all()) as T[];
  }

  async one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    return this.immediate.one<T>(sql, params);
  }
}
