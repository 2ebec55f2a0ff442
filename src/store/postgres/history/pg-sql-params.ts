// Positional parameters for a statement assembled from optional parts: `param(v)` appends v and
// returns its placeholder ($1, $2, …), so each filter is written once, next to its value.
export class PgSqlParams {
  readonly values: unknown[] = [];

  param(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}
