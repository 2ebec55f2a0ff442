// The SQL write port on the embedded engine. In the server the statements run inside the group
// commit's shared transaction (their own savepoint, one fsync with the writes around them); in a
// command (no server in this process) in a transaction of their own, BEGIN IMMEDIATE, waiting on
// the server's writes through the busy timeout and leaving the lock free after each for them
// (write-lock-pacing.ts).
import type { DatabaseHandle } from './database';
import type { GroupCommitter } from './group-commit';
import { bound, SqliteSqlReader } from './sqlite-sql-reader';
import { WriteLockPacing } from './write-lock-pacing';
import type { SqlOutcome, SqlStatement, SqlWriter } from './sql/sql-writer';

export class SqliteSqlWriter extends SqliteSqlReader implements SqlWriter {
  constructor(
    private readonly database: Pick<DatabaseHandle, 'statement' | 'sqlite'>,
    private readonly committer?: GroupCommitter,
    /** A command's: its transactions' holds of the lock, and the pauses after them. */
    private readonly pacing = new WriteLockPacing(),
  ) {
    super(database);
  }

  transaction(statements: readonly SqlStatement[]): Promise<SqlOutcome[]> {
    const work = (): SqlOutcome[] =>
      statements.map(({ sql, params = [] }): SqlOutcome => {
        const statement = this.database.statement(sql);
        const args = params.length ? [bound(params)] : [];
        return statement.reader ? { rows: statement.all(...args), changes: 0 } : { rows: [], changes: statement.run(...args).changes };
      });
    if (this.committer) return this.committer.run(work);
    // (Its body runs once BEGIN IMMEDIATE has the lock: the hold is counted from there.)
    const held = (acquired: () => void) =>
      this.database.sqlite
        .transaction(() => {
          acquired();
          return work();
        })
        .immediate();
    return this.pacing.hold(held, 'rows').finally(() => this.checkpoint());
  }

  /**
   * A command copies its own transaction's WAL frames back to the database file as it goes
   * (PASSIVE: never blocks a writer, copies only what no reader still needs). Left to the server's
   * checkpointer, the 1M set's compaction left 460 MB of WAL behind it, whose copying and fsyncs
   * made a server's commit wait 1.8 s on its own fsync after the compaction's last transaction.
   */
  private checkpoint(): void {
    this.database.sqlite.pragma('wal_checkpoint(PASSIVE)');
  }
}
