// The summary queries count over index ranges: no step of their plans scans a whole table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActivitySummaryRepository } from '../../src/store/activity-summary-repository';
import { type DatabaseHandle, openDatabase } from '../../src/store/database';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';

describe('activity summary query plans', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-summary-plans-'));
    handle = openDatabase({ path: join(dir, 'plans.db'), migrationsFolder: join(__dirname, '../../migrations'), synchronous: 'NORMAL' });
  });
  afterAll(() => {
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `$1`, `$2`… bound by name, as SqliteSqlReader binds them. */
  const plan = (sql: string, values: readonly unknown[]) =>
    (handle.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(Object.fromEntries(values.map((v, i) => [i + 1, v]))) as { detail: string }[]).map((r) => r.detail);
  const fullScans = (sql: string, values: readonly unknown[]) =>
    plan(sql, values).filter((d) => /^SCAN /.test(d) && !/USING (COVERING )?INDEX|VIRTUAL TABLE INDEX|USING INTEGER PRIMARY KEY|^SCAN b$|^SCAN json_each/.test(d));

  it('bucket counts use the name/position indexes of events, transitions and intervals', async () => {
    const repo = new ActivitySummaryRepository(new SqliteSqlReader(handle));
    const statements: string[] = [];
    const original = handle.statement.bind(handle);
    handle.statement = (sql: string) => {
      statements.push(sql);
      return original(sql);
    };
    try {
      expect(
        (
          await repo.buckets({ namespace: 'a', name: 'web' }, [
            [1, 5],
            [5, 9],
          ])
        ).map((b) => b.changes),
      ).toEqual([0, 0]);
    } finally {
      handle.statement = original;
    }
    expect(statements).toHaveLength(3);
    for (const sql of statements) {
      const params = ['a', 'web', '[[1,5]]'];
      expect(fullScans(sql, params)).toEqual([]);
      // One seek per bucket on (namespace, name, position range), not a pass over the Service's rows per bucket.
      expect(plan(sql, params)).toContainEqual(expect.stringMatching(/^SEARCH \w+ USING (COVERING )?INDEX \w+ \(namespace=\? AND name=\? AND \w+>\? AND \w+<\?\)$/));
    }
  });

  it.each([{}, { namespace: 'a' }, { after: true }, { namespace: 'a', after: true }])('the ranking %j', (scope) => {
    const range = { fromRv: 1, toRv: 10, namespace: scope.namespace, after: scope.after ? { count: 1, namespace: '', name: '', uid: '' } : undefined };
    const { sql, values } = new ActivitySummaryRepository(new SqliteSqlReader(handle)).rankingQuery(range, 10);
    expect(fullScans(sql, values)).toEqual([]);
  });
});
