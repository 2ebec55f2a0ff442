import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renameIndexes } from './index-renames';

describe('renameIndexes', () => {
  let dir: string;
  let db: Database.Database;
  let other: Database.Database;
  const rootpage = (d: Database.Database, name: string) => d.prepare(`SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = ?`).pluck().get(name);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-index-renames-'));
    db = new Database(join(dir, 'a.db'));
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v INT);
      CREATE INDEX "shadow_k" ON t (k) WHERE v > 0;
      CREATE INDEX other_v ON t (v);
      INSERT INTO t (k, v) VALUES ('a', 1), ('b', 2), ('c', 0);`);
    other = new Database(join(dir, 'a.db')); // a server's connection, opened before
  });
  afterEach(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renames an index over the same b-tree, and a connection opened before uses it by its new name', () => {
    const before = rootpage(db, 'shadow_k');
    const stale = other.prepare('SELECT count(*) FROM t INDEXED BY other_v WHERE v > 0').pluck(); // prepared before the rename
    db.transaction(() => renameIndexes(db, 'main', [{ from: 'shadow_k', to: 'k_positive', sql: 'CREATE INDEX k_positive ON t (k) WHERE v > 0' }]))();
    expect(rootpage(db, 'k_positive')).toBe(before);
    expect(rootpage(db, 'shadow_k')).toBeUndefined();
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(stale.get()).toBe(2);
    const plan = other.prepare(`EXPLAIN QUERY PLAN SELECT k FROM t INDEXED BY k_positive WHERE k > 'a' AND v > 0`).all() as { detail: string }[];
    expect(plan.map((r) => r.detail)).toEqual([expect.stringContaining('USING INDEX k_positive')]);
    expect(other.prepare(`SELECT k FROM t INDEXED BY k_positive WHERE k > '' AND v > 0 ORDER BY k`).pluck().all()).toEqual(['a', 'b']);
    // DEFENSIVE mode is back on: the schema cannot be written any more
    expect(() => db.exec(`UPDATE sqlite_master SET name = name`)).toThrow(/may not be modified/);
  });

  it('refuses a name another object holds, and the rollback leaves every name as it was', () => {
    const names = () => db.prepare(`SELECT name FROM sqlite_master ORDER BY name`).pluck().all();
    const before = names();
    expect(() => db.transaction(() => renameIndexes(db, 'main', [{ from: 'shadow_k', to: 'other_v', sql: 'CREATE INDEX other_v ON t (k) WHERE v > 0' }]))()).toThrow(/the name is taken/);
    expect(() => db.transaction(() => renameIndexes(db, 'main', [{ from: 'missing', to: 'x', sql: 'CREATE INDEX x ON t (k)' }]))()).toThrow(/does not exist/);
    expect(() => renameIndexes(db, 'main', [{ from: 'shadow_k', to: 'x', sql: 'CREATE INDEX x ON t (k) WHERE v > 0' }])).toThrow(/transaction/);
    expect(names()).toEqual(before);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('swaps two names in one call', () => {
    const [k, v] = [rootpage(db, 'shadow_k'), rootpage(db, 'other_v')];
    db.transaction(() =>
      renameIndexes(db, 'main', [
        { from: 'shadow_k', to: 'other_v', sql: 'CREATE INDEX other_v ON t (k) WHERE v > 0' },
        { from: 'other_v', to: 'shadow_k', sql: 'CREATE INDEX shadow_k ON t (v)' },
      ]),
    )();
    expect([rootpage(db, 'other_v'), rootpage(db, 'shadow_k')]).toEqual([k, v]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
