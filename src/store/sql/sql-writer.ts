// The write half of the small SQL port, for maintenance that changes stored rows in short
// transactions beside a running server (compaction). A transaction is a list of statements, not a
// callback: SQLite runs it in one synchronous turn (never interleaved with the server's group
// commit), PostgreSQL on one pooled connection.
import type { SqlReader } from './sql-reader';

export interface SqlStatement {
  sql: string;
  params?: readonly unknown[];
}

/** One statement's answer: its rows (a query) or how many rows it changed. */
export interface SqlOutcome {
  rows: unknown[];
  changes: number;
}

export interface SqlWriter extends SqlReader {
  /** Runs the statements in order in one write transaction: all of them commit, or none. */
  transaction(statements: readonly SqlStatement[]): Promise<SqlOutcome[]>;
}
