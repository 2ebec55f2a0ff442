import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../shared/project-root';
import type { DatabaseHandle } from '../store/database';
import { createScratchDatabase } from './database-files';
import { LIVE_SCHEMA } from './live-catch-up';
import { LockClock } from './lock-clock';
import { projectionSchema, shadowSchema } from './projection-schema';
import { projectionTables } from './projection-tables';
import { dropTables, resyncStreams } from './shadow-tables';
import { tableShape } from './table-shape';

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

describe('resyncStreams', () => {
  let dir: string;
  let scratch: DatabaseHandle;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-resync-'));
    // The projection tables of the migrations, and their shadow copies in an attached file...
    scratch = createScratchDatabase(join(dir, 'scratch.db'), join(PROJECT_ROOT, 'migrations'));
    new Database(join(dir, 'live.db')).close();
    scratch.sqlite.prepare(`ATTACH DATABASE ? AS ${LIVE_SCHEMA}`).run(join(dir, 'live.db'));
    // ...indexed, as they are when replay catches up (not their triggers: the R-tree is not an owner).
    const shadow = shadowSchema(projectionSchema(scratch.sqlite, projectionTables(scratch)));
    for (const sql of [...shadow.tables, ...shadow.indexes]) scratch.sqlite.exec(sql.replace(/^(CREATE (?:UNIQUE )?(?:TABLE|INDEX) )/, `$1${LIVE_SCHEMA}.`));
  });
  afterEach(() => {
    scratch.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds each table's rows of the written streams through its key or a uid index, never by reading the whole table, and copies what differs", () => {
    const sqlite = scratch.sqlite;
    const occurrence = (rv: number, uid: string) => [rv, uid, 'ns', 'web.1', 'Service', 'ns', 'web', 'svc', 'Normal', 'Reason', 'ctl'];
    const insertOccurrence = (schema: string) => sqlite.prepare(`INSERT INTO ${schema} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // Before the catch-up both hold the Event's first write; the scratch folded its second (rv 7) and its live row.
    for (const target of ['main.kube_event_occurrences', `${LIVE_SCHEMA}.replay_shadow_kube_event_occurrences`]) insertOccurrence(target).run(...occurrence(5, 'e-1'));
    insertOccurrence('main.kube_event_occurrences').run(...occurrence(7, 'e-1'));
    sqlite.prepare(`INSERT INTO main.kube_events VALUES ('ns', 'web.1', 'e-1', 7, 2, '{}', NULL)`).run();
    sqlite.prepare(`INSERT INTO ${LIVE_SCHEMA}.replay_shadow_kube_events VALUES ('ns', 'web.1', 'e-1', 5, 1, '{}', NULL)`).run();
    const owners = projectionTables(scratch).map((t) => tableShape(sqlite, 'main', t));
    const plans: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    jest.spyOn(sqlite, 'prepare').mockImplementation((sql: string) => {
      if (/^(DELETE|INSERT)/.test(sql)) {
        const params = Object.fromEntries(['uids', 'names', 'after'].filter((p) => sql.includes(`@${p}`)).map((p) => [p, p === 'after' ? 0 : '[]']));
        plans.push(...(prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => `${r.detail}  (${sql.slice(0, 60)})`));
      }
      return prepare(sql);
    });
    sqlite.transaction(() => resyncStreams(sqlite, owners, [{ uid: 'e-1', namespace: 'ns', name: 'web.1' }], 5))();
    expect(plans.filter((p) => /^SCAN (a|b)\b/.test(p))).toEqual([]);
    // The allocations of the written Services are found by allocations_uid: its one reader (issue 46).
    // The shadow's and the scratch's allocations of the written Services, found by allocations_uid
    // (named replay_shadow_… on the shadow): the index's one reader (issue 46).
    expect(plans).toContainEqual(expect.stringMatching(/^SEARCH a USING (COVERING )?INDEX replay_shadow_allocations_uid \(uid=\?\) {2}\(DELETE FROM live\."replay_shadow_allocations"/));
    expect(plans).toContainEqual(expect.stringMatching(/^SEARCH a USING (COVERING )?INDEX allocations_uid \(uid=\?\) {2}\(INSERT INTO live\."replay_shadow_allocations"/));
    expect(plans.length).toBeGreaterThan(owners.length);
    expect(prepare(`SELECT resource_version FROM ${LIVE_SCHEMA}.replay_shadow_kube_event_occurrences ORDER BY 1`).pluck().all()).toEqual([5, 7]);
    expect(prepare(`SELECT uid, resource_version, stream_version FROM ${LIVE_SCHEMA}.replay_shadow_kube_events`).all()).toEqual([{ uid: 'e-1', resource_version: 7, stream_version: 2 }]);
  });
});
