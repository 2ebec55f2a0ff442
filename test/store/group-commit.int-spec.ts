// Group commit on a real database: writes queued in one turn share one transaction (one fsync),
// a failing write is rolled back to its savepoint without failing its neighbours, order is
// arrival order, and callers hear back only after COMMIT.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/shared/project-root';
import { type DatabaseHandle, openDatabase } from '../../src/store/database';
import { GroupCommitter } from '../../src/store/group-commit';
import { WriteNotStoredError } from '../../src/store/ports/write-not-stored-error';

describe('GroupCommitter', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-gc-'));
    handle = openDatabase({ path: join(dir, 'db'), migrationsFolder: join(PROJECT_ROOT, 'migrations'), synchronous: 'FULL' });
    handle.sqlite.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
  });
  afterEach(() => {
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shares one commit among the writes of one turn and isolates failures in savepoints', async () => {
    const batches: number[] = [];
    const committer = new GroupCommitter(handle, { committed: (size) => batches.push(size) });
    const insert = handle.sqlite.prepare('INSERT INTO t (n) VALUES (?)');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        committer.run(() => {
          insert.run(i);
          if (i % 10 === 3) throw new Error(`write ${i} fails after its insert`);
          return i;
        }),
      ),
    );
    expect(batches).toEqual([50]);
    const kept = handle.sqlite.prepare('SELECT n FROM t ORDER BY n').pluck().all();
    expect(kept).toEqual(Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 10 !== 3));
    results.forEach((r, i) => expect(r.status).toBe(i % 10 === 3 ? 'rejected' : 'fulfilled'));
  });

  it('runs writes in arrival order, each seeing the ones before it', async () => {
    const committer = new GroupCommitter(handle);
    const seen = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        committer.run(() => {
          handle.sqlite.prepare('INSERT INTO t (n) VALUES (?)').run(i);
          return handle.sqlite.prepare('SELECT count(*) FROM t').pluck().get();
        }),
      ),
    );
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers only after the commit: nothing is resolved while the transaction is open', async () => {
    const committer = new GroupCommitter(handle);
    let inTransactionWhenResolved: boolean | undefined;
    await committer.run(() => 1).then(() => (inTransactionWhenResolved = handle.sqlite.inTransaction));
    expect(inTransactionWhenResolved).toBe(false);
  });

  it('fails every write of a batch whose COMMIT fails, leaving nothing behind', async () => {
    const committer = new GroupCommitter(handle);
    handle.sqlite.exec('PRAGMA foreign_keys = ON; CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)');
    const results = await Promise.allSettled([
      committer.run(() => handle.sqlite.prepare('INSERT INTO t (n) VALUES (1)').run()),
      committer.run(() => handle.sqlite.prepare('INSERT INTO child (p) VALUES (42)').run()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(handle.sqlite.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    expect(handle.sqlite.inTransaction).toBe(false);
  });

  it('answers a batch that SQLite rolls back mid-way (SQLITE_FULL) exactly as stored, never autocommitting a write alone', async () => {
    const committer = new GroupCommitter(handle);
    handle.sqlite.exec('ALTER TABLE t ADD COLUMN s TEXT');
    const insert = handle.sqlite.prepare('INSERT INTO t (n, s) VALUES (?, ?)');
    // Room for a few rows only: the insert that needs one more page fails with SQLITE_FULL, and
    // SQLite then rolls back the whole shared transaction, not just that statement.
    const pages = handle.sqlite.pragma('page_count', { simple: true }) as number;
    handle.sqlite.pragma(`max_page_count = ${pages + 3}`);
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => committer.run(() => insert.run(i, 'x'.repeat(3000)))));
    const stored = handle.sqlite.prepare('SELECT n FROM t ORDER BY n').pluck().all();
    const answeredStored = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(stored).toEqual(answeredStored);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThan(12);
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(WriteNotStoredError);
        expect((r.reason as Error).message).toMatch(/^Internal error occurred: the write was not stored.*SQLITE_FULL/);
      }
    }
    expect(handle.sqlite.inTransaction).toBe(false);
    // Still usable once there is room again.
    handle.sqlite.pragma('max_page_count = 1073741823');
    await expect(committer.run(() => insert.run(100, 'after'))).resolves.toBeDefined();
    expect(handle.sqlite.prepare('SELECT count(*) FROM t WHERE n = 100').pluck().get()).toBe(1);
  });

  it('answers every write of a batch whose ROLLBACK fails, stores none of it, and recovers on the next batch', async () => {
    const committer = new GroupCommitter(handle);
    const insert = handle.sqlite.prepare('INSERT INTO t (n) VALUES (?)');
    handle.sqlite.exec('INSERT INTO t (n) VALUES (1000), (1001)');
    // An open read cursor makes better-sqlite3 refuse every other statement on the connection,
    // the savepoint's RELEASE and the ROLLBACK after it included.
    let cursor: IterableIterator<unknown> | undefined;
    const results = await Promise.allSettled([
      committer.run(() => insert.run(1)),
      committer.run(() => {
        cursor = handle.sqlite.prepare('SELECT n FROM t').iterate();
        cursor.next();
        return 2;
      }),
      committer.run(() => insert.run(3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(WriteNotStoredError);
    expect(handle.sqlite.inTransaction).toBe(true);
    cursor!.return!();
    await expect(committer.run(() => insert.run(4))).resolves.toBeDefined();
    expect(handle.sqlite.inTransaction).toBe(false);
    expect(handle.sqlite.prepare('SELECT n FROM t ORDER BY n').pluck().all()).toEqual([4, 1000, 1001]);
  });
});
