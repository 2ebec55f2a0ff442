// The SQL port on PostgreSQL: each statement on the connection `db()` names when it runs (the
// pool, or the open snapshot of a history answer: PgReadScope). node-postgres prepares nothing
// by name; the server plans each statement as it comes.
import { POSTGRES_DIALECT, type SqlReader } from '../sql/sql-reader';
import type { Queryable } from './postgres-database';

export class PgSqlReader implements SqlReader {
  readonly dialect = POSTGRES_DIALECT;

  constructor(private readonly db: () => Queryable) {}

  async all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return (await this.db().query(sql, params as unknown[] | undefined)).rows as T[];
  }

  async one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
}
