// The small asynchronous SQL port the history repositories are written over, once for both
// engines (kine's shape: one algorithm, a dialect per database). Statements use PostgreSQL's
// numbered placeholders ($1, $2, …) on both engines (SQLite binds `$1` by name, sqlite-sql-reader.ts);
// where the engines' SQL really differs (index hints, JSON table functions, range types), a
// repository asks the reader's dialect for its text.
export type DialectName = 'sqlite' | 'postgres';

export interface SqlDialect {
  readonly name: DialectName;
  /**
   * After a table (and its alias): SQLite's `INDEXED BY` hint, so that a plan never depends on
   * statistics (the query-plan tests pin them); nothing on PostgreSQL, whose planner picks.
   */
  indexedBy(index: string): string;
  /**
   * A join that keeps its left side the outer loop (a list of bounds driving index seeks):
   * SQLite's CROSS JOIN, which its planner never reorders; a plain JOIN on PostgreSQL.
   */
  readonly drivingJoin: string;
}

export const SQLITE_DIALECT: SqlDialect = {
  name: 'sqlite',
  indexedBy: (index) => ` INDEXED BY ${index}`,
  drivingJoin: 'CROSS JOIN',
};

/** SQLite on an older store read through stand-ins (older-store-stand-ins.ts): a view has no index to name. */
export const SQLITE_UNHINTED_DIALECT: SqlDialect = { ...SQLITE_DIALECT, indexedBy: () => '' };

export const POSTGRES_DIALECT: SqlDialect = {
  name: 'postgres',
  indexedBy: () => '',
  drivingJoin: 'JOIN',
};

/** Reads in the caller's turn, for values read only if asked for (SQLite's reads never wait). */
export interface ImmediateSqlReader {
  one<T>(sql: string, params?: readonly unknown[]): T | undefined;
  /** The first column of the first row, if any: a hot read's value without a row around it. */
  value<T>(sql: string, params?: readonly unknown[]): T | undefined;
}

export interface SqlReader {
  readonly dialect: SqlDialect;
  /** Every row of a query. */
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row of a query, if any. */
  one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /**
   * Present where a read costs no round trip (SQLite): what only some callers look at is read
   * when they do. Absent (PostgreSQL): it is read with the rest, in the same statement.
   */
  readonly immediate?: ImmediateSqlReader;
}

/**
 * Positional parameters for a statement assembled from optional parts: `param(v)` appends v and
 * returns its placeholder ($1, $2, …), so each filter is written once, next to its value.
 */
export class SqlParams {
  readonly values: unknown[];

  /** `fixed`: values whose placeholders ($1…) the statement writes itself, first. */
  constructor(...fixed: unknown[]) {
    this.values = fixed;
  }

  param(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}
