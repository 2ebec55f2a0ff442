import Database from 'better-sqlite3';
import { DifferenceTally } from './difference-tally';
import { tableShape } from './table-shape';

describe('DifferenceTally', () => {
  it('counts the keys whose rows differ (changed, only fresh, only live) from the fresh rows added batch by batch', () => {
    const db = new Database(':memory:');
    try {
      db.exec(`ATTACH DATABASE ':memory:' AS live`);
      for (const schema of ['main', 'live']) db.exec(`CREATE TABLE ${schema}.revisions (uid TEXT NOT NULL, rv INTEGER NOT NULL, object TEXT, PRIMARY KEY (uid, rv))`);
      const insert = (schema: string, rows: [string, number, string | null][]) => {
        const statement = db.prepare(`INSERT INTO ${schema}.revisions (uid, rv, object) VALUES (?, ?, ?)`);
        for (const row of rows) statement.run(row);
      };
      insert('main', [
        ['a', 1, '{}'],
        ['a', 2, '{"x":1}'], // changed
        ['b', 3, null],
        ['c', 4, '{}'], // only fresh
        ['d', 5, null], // changed: null against a value
      ]);
      insert('live', [
        ['a', 1, '{}'],
        ['a', 2, '{"x":2}'],
        ['b', 3, null],
        ['d', 5, '{}'],
        ['e', 6, '{}'], // only live
      ]);
      const shape = tableShape(db, 'main', 'revisions');
      const tally = new DifferenceTally(db, 'live', 'main');
      tally.add(shape, Number.MIN_SAFE_INTEGER, 2);
      tally.add(shape, 2, 4);
      tally.add(shape, 4, 5);
      expect(tally.differingKeys(shape)).toBe(4);
    } finally {
      db.close();
    }
  });

  it('counts every live row as differing when nothing fresh was added, and none when both tables are empty', () => {
    const db = new Database(':memory:');
    try {
      db.exec(`ATTACH DATABASE ':memory:' AS live`);
      for (const schema of ['main', 'live']) db.exec(`CREATE TABLE ${schema}.allocations (kind TEXT NOT NULL, value TEXT NOT NULL, uid TEXT NOT NULL, PRIMARY KEY (kind, value))`);
      const shape = tableShape(db, 'main', 'allocations');
      expect(new DifferenceTally(db, 'live', 'main').differingKeys(shape)).toBe(0);
      db.prepare(`INSERT INTO live.allocations VALUES ('cluster-ip', '10.0.0.1', 'u')`).run();
      expect(new DifferenceTally(db, 'live', 'main').differingKeys(shape)).toBe(1);
    } finally {
      db.close();
    }
  });
});
