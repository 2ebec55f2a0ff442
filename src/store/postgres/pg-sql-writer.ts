// The SQL write port on PostgreSQL: a transaction's statements on one pooled connection.
import type { Pool } from 'pg';
import type { SqlOutcome, SqlStatement, SqlWriter } from '../sql/sql-writer';
import { PgSqlReader } from './pg-sql-reader';
import { inTransaction } from './postgres-database';

export class PgSqlWriter extends PgSqlReader implements SqlWriter {
  constructor(private readonly pool: Pool) {
    super(() => pool);
  }

  transaction(statements: readonly SqlStatement[]): Promise<SqlOutcome[]> {
    return inTransaction(this.pool, async (client) => {
      const out: SqlOutcome[] = [];
      for (const { sql, params } of statements) {
        const result = await client.query(sql, params as unknown[] | undefined);
        out.push({ rows: result.rows, changes: result.rowCount ?? 0 });
      }
      return out;
    });
  }
}
