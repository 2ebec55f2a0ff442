import Database from 'better-sqlite3';
import { pagesInUse, WalCheckpoints } from './wal-checkpoints';

describe('WalCheckpoints', () => {
  it('checkpoints between batches only once the file grew by the given number of pages since the last checkpoint', () => {
    let pages = 1000;
    const taken: number[] = [];
    const checkpoints = new WalCheckpoints(
      () => pages,
      () => taken.push(pages),
      100,
    );
    for (const grown of [40, 40, 19]) {
      pages += grown;
      checkpoints.maybe();
    }
    expect(taken).toEqual([]);
    pages += 1;
    checkpoints.maybe();
    expect(taken).toEqual([1100]);
    pages += 99;
    checkpoints.maybe();
    expect(taken).toEqual([1100]);
    checkpoints.now();
    expect(taken).toEqual([1100, 1199]);
    pages += 100;
    checkpoints.maybe();
    expect(taken).toEqual([1100, 1199, 1299]);
  });

  it('counts from a checkpoint taken between phases, whatever the file grew by before it', () => {
    let pages = 0;
    const taken: number[] = [];
    const checkpoints = new WalCheckpoints(
      () => pages,
      () => taken.push(pages),
      100,
    );
    pages = 90;
    checkpoints.now();
    pages = 150;
    checkpoints.maybe();
    expect(taken).toEqual([90]);
  });
});

describe('pagesInUse', () => {
  it('grows as rows are written, also where the pages come from the free list and the file does not grow', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (x TEXT)');
      const insert = db.prepare('INSERT INTO t VALUES (?)');
      const rows = (n: number) => {
        for (let i = 0; i < n; i++) insert.run('x'.repeat(3000));
      };
      rows(200);
      db.exec('DELETE FROM t'); // its pages go to the free list; the file keeps its size
      const [filePages, inUse] = [db.pragma('page_count', { simple: true }), pagesInUse(db)];
      rows(150);
      expect(db.pragma('page_count', { simple: true })).toBe(filePages);
      expect(pagesInUse(db) - inUse).toBeGreaterThanOrEqual(150);
    } finally {
      db.close();
    }
  });
});
