import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LockClock } from './lock-clock';
import { projectionSchema } from './projection-schema';
import { dropTables } from './shadow-tables';

describe('dropTables', () => {
  let dir: string;
  let db: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-drop-tables-'));
    db = new Database(join(dir, 'a.db'));
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v INT);
      CREATE INDEX t_k ON t (k);
      CREATE INDEX t_open ON t (v) WHERE k IS NULL;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO t (k, v) SELECT 'k' || i, i FROM n;`);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads each index and the table whole outside the write lock, then drops it under the lock', () => {
    const schema = projectionSchema(db, ['t']);
    const steps: string[] = [];
    const prepare = db.prepare.bind(db);
    jest.spyOn(db, 'prepare').mockImplementation((sql: string) => {
      const statement = prepare(sql);
      if (!sql.includes('dbstat')) return statement;
      // The read of a whole b-tree: recorded with whether a write transaction was open.
      return {
        pluck: () => ({
          get: (schemaName: string, name: string) => {
            steps.push(`read ${name}${db.inTransaction ? ' (in a transaction)' : ''}`);
            return statement.pluck().get(schemaName, name);
          },
        }),
      } as unknown as Database.Statement;
    });
    const clock = new LockClock();
    const hold = clock.hold.bind(clock);
    jest.spyOn(clock, 'hold').mockImplementation((sqlite, what, work) => {
      steps.push(what);
      return hold(sqlite, what, work);
    });
    dropTables(db, schema, (name) => name, clock);
    expect(steps).toEqual(['read t_k', 'drop index t_k', 'read t_open', 'drop index t_open', 'read t', 'drop t']);
    expect(prepare(`SELECT count(*) FROM sqlite_master WHERE tbl_name = 't'`).pluck().get()).toBe(0);
  });

  it('reads the pages of the b-tree it names (dbstat counts every page of it)', () => {
    const pages = (name: string) => db.prepare('SELECT pageno FROM dbstat(?, 1) WHERE name = ?').pluck().get('main', name) as number;
    expect(pages('t')).toBeGreaterThan(1);
    expect(pages('t_k')).toBeGreaterThan(1);
    expect(pages('t_open')).toBe(1);
  });
});
