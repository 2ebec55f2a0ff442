// replay, verify, export/import and point-in-time copies on a real store written through the
// real write path, with the application still holding the database open: Services, and
// controllers' Events beside them (created, repeated, deleted, expired, created again).
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseHandle } from '../../src/store/database';
import { GroupCommitter } from '../../src/store/group-commit';
import { DATABASE } from '../../src/store/ports/store.tokens';
import { exportEvents } from '../../src/maintenance/event-exporter';
import { importEvents } from '../../src/maintenance/event-importer';
import { DataDirectoryLockedError, lockDataDirectory } from '../../src/store/data-directory-lock';
import { parseLogPoint } from '../../src/maintenance/log-point';
import { projectionTables } from '../../src/maintenance/projection-tables';
import { InvalidArgumentError, MaintenanceError } from '../../src/maintenance/maintenance-error';
import { buildPointInTime } from '../../src/maintenance/point-in-time-copy';
import { replayDataDirectory, replayProjections } from '../../src/maintenance/projection-replayer';
import { verifyProjections } from '../../src/maintenance/projection-verifier';
import { silentProgress, type Progress } from '../../src/maintenance/progress';
import { READ_ONLY_MESSAGE } from '../../src/maintenance/read-only-guard';
import { type AppContext, createAppContext } from '../helpers/app-context';
import { foldLogAndCompare } from '../helpers/log-fold';
import { StoreWriter } from './store-fixture';
import { decodeStoredText, type StoredText } from '../../src/store/stored-text-codec';
import { encodeRevisionObject, encodeRevisionPatch } from '../../src/store/revision-texts';
import { KubeEventLog } from '../../src/store/kube-event-log';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';
import { eventDataText } from '../../src/store/packed-event-data';
import { HISTORY_COMPACTOR, type HistoryCompactor } from '../../src/store/ports/history-compaction';

const TABLES = ['events', 'services', 'service_revisions', 'service_lifetimes', 'condition_transitions', 'ingress_intervals', 'allocations', 'kube_events', 'kube_event_occurrences'];

/** Every row of every table, in a stable order: what "identical state" means. */
function dump(dbPath: string): Record<string, unknown[]> {
  const db = new Database(dbPath, { readonly: true });
  try {
    return Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]));
  } finally {
    db.close();
  }
}

/** Every schema object as "type name table", sorted. */
const schemaNames = (db: Database.Database) => (db.prepare('SELECT type, name, tbl_name FROM sqlite_master').raw().all() as string[][]).map((r) => r.join(' ')).sort();

const verify = (dataDir: string) => verifyProjections({ dataDir, maxDifferences: 20, progress: silentProgress });

async function exportText(dataDir: string, window: { since?: string; until?: string } = {}) {
  let text = '';
  const report = await exportEvents({
    dataDir,
    since: window.since ? parseLogPoint(window.since, '--since') : undefined,
    until: window.until ? parseLogPoint(window.until, '--until') : undefined,
    write: async (chunk) => void (text += chunk),
    progress: silentProgress,
  });
  return { text, report };
}

async function* linesOf(text: string) {
  for (const line of text.split('\n')) yield line;
}

describe('maintenance on a live store', () => {
  let ctx: AppContext;
  let writer: StoreWriter;
  let dbPath: string;
  let scratchRoot: string;
  let live: Database.Database;

  beforeAll(async () => {
    ctx = await createAppContext();
    writer = new StoreWriter(ctx);
    await writer.history();
    await writer.eventHistory();
    dbPath = join(ctx.dataDir, 'svctrail.db');
    live = new Database(dbPath);
    scratchRoot = mkdtempSync(join(tmpdir(), 'svctrail-maint-'));
  });
  afterAll(async () => {
    live.close();
    await ctx.close();
    rmSync(scratchRoot, { recursive: true, force: true });
  });

  it('verify passes on a store written by the live path, and agrees with the independent fold', async () => {
    const report = await verify(ctx.dataDir);
    expect(report.differences).toBe(0);
    expect(report.samples).toEqual([]);
    expect(report.events).toBeGreaterThan(10);
    expect(report.tables.map((t) => t.table)).toEqual([
      'services',
      'service_revisions',
      'revision_facts',
      'service_lifetimes',
      'condition_transitions',
      'ingress_intervals',
      'allocations',
      'kube_events',
      'kube_event_occurrences',
    ]);
    for (const t of report.tables) expect(t.liveRows).toBe(t.foldedRows);
    // Three live Events (one repeated, one created again after its deletion); every write of an Event an occurrence, the expiry included.
    expect(report.tables.find((t) => t.table === 'kube_events')!.liveRows).toBe(3);
    expect(report.tables.find((t) => t.table === 'kube_event_occurrences')!.liveRows).toBe(9);
    expect(foldLogAndCompare(dbPath).differences).toEqual([]);
    // verify leaves nothing behind in the data directory
    expect(readdirSync(ctx.dataDir).filter((f) => f.startsWith('.svctrail-'))).toEqual([]);
  });

  it('verify reports each tampered row: a changed field, a missing row, an unexpected row', async () => {
    const before = dump(dbPath);
    const web = live.prepare(`SELECT object FROM services WHERE name = 'web'`).pluck().get() as string;
    live.prepare(`UPDATE services SET object = ? WHERE name = 'web'`).run(web.replace('203.0.113.8', '192.0.2.66'));
    live.prepare('DELETE FROM condition_transitions WHERE id = 2').run();
    live.prepare(`INSERT INTO allocations (kind, value, uid) VALUES ('cluster-ip', '10.96.255.254', 'nobody')`).run();
    // A live Event whose count was changed, and an occurrence that lost its reason.
    const repeated = live.prepare(`SELECT object FROM kube_events WHERE name = 'web.1800000000000002'`).pluck().get() as string;
    live.prepare(`UPDATE kube_events SET object = ? WHERE name = 'web.1800000000000002'`).run(repeated.replace('"count":3', '"count":30'));
    const occurrence = live.prepare(`SELECT resource_version FROM kube_event_occurrences WHERE name = 'db.1800000000000003' ORDER BY resource_version LIMIT 1`).pluck().get() as number;
    live.prepare(`UPDATE kube_event_occurrences SET reason = '' WHERE resource_version = ?`).run(occurrence);

    const report = await verify(ctx.dataDir);
    expect(report.differences).toBe(5);
    expect(report.tables.find((t) => t.table === 'services')!.differences).toBe(1);
    const [allocation, transition, occurrenceSample, liveEvent, services] = [...report.samples].sort((a, b) => a.table.localeCompare(b.table));
    expect(liveEvent).toMatchObject({ table: 'kube_events', kind: 'changed', key: { namespace: 'default', name: 'web.1800000000000002' } });
    expect(liveEvent.columns).toEqual([expect.objectContaining({ column: 'object', fields: [{ path: '.count', live: 30, folded: 3 }] })]);
    expect(occurrenceSample).toMatchObject({
      table: 'kube_event_occurrences',
      kind: 'changed',
      key: { resource_version: occurrence },
      columns: [{ column: 'reason', live: '', folded: 'EnsuringLoadBalancer' }],
    });
    expect(services).toMatchObject({ table: 'services', kind: 'changed', key: { namespace: 'default', name: 'web' } });
    expect(services.columns).toEqual([
      expect.objectContaining({
        column: 'object',
        fields: [{ path: '.status.loadBalancer.ingress[0].ip', live: '192.0.2.66', folded: '203.0.113.8' }],
      }),
    ]);
    expect(transition).toMatchObject({ table: 'condition_transitions', kind: 'missing', key: { id: 2 } });
    expect(allocation).toMatchObject({ table: 'allocations', kind: 'unexpected', key: { kind: 'cluster-ip', value: '10.96.255.254' } });

    // replay restores exactly the rows the log produces, ids included, and then verify passes
    const replay = replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(Object.fromEntries(replay.tables.map((t) => [t.table, t.changed]))).toEqual({
      services: 1,
      service_revisions: 0,
      revision_facts: 0,
      service_lifetimes: 0,
      condition_transitions: 1,
      ingress_intervals: 0,
      allocations: 1,
      kube_events: 1,
      kube_event_occurrences: 1,
    });
    expect(replay.caughtUpWrites).toBe(0);
    expect(dump(dbPath)).toEqual(before);
    expect((await verify(ctx.dataDir)).differences).toBe(0);
    // the running application reads the restored projection
    expect(writer.repository.loadLive('default', 'web').object!.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.8', ipMode: 'VIP' }]);
  });

  it('verify compares a revision by the texts it holds: a tampered stored object or patch is a difference, described decoded', async () => {
    // verify's fold keeps its texts plain and inflates the live ones: the comparison must still see inside the deflated bytes.
    const before = dump(dbPath);
    const row = live.prepare(`SELECT uid, resource_version AS rv, object, patch FROM service_revisions WHERE name = 'web' ORDER BY resource_version DESC LIMIT 1`).get() as {
      uid: string;
      rv: number;
      object: StoredText;
      patch: StoredText;
    };
    const [object, patch] = [decodeStoredText(row.object), decodeStoredText(row.patch)];
    expect(object).toContain('"203.0.113.8"');
    const tampered = object.replace('"203.0.113.8"', '"192.0.2.67"');
    live.prepare('UPDATE service_revisions SET object = ?, patch = ? WHERE uid = ? AND resource_version = ?').run(encodeRevisionObject(tampered), encodeRevisionPatch('[]'), row.uid, row.rv);

    const report = await verify(ctx.dataDir);
    expect(report.differences).toBe(1);
    expect(report.samples).toEqual([
      expect.objectContaining({
        table: 'service_revisions',
        kind: 'changed',
        key: { uid: row.uid, resource_version: row.rv },
        columns: [
          expect.objectContaining({ column: 'object', live: tampered, folded: object, fields: [{ path: '.status.loadBalancer.ingress[0].ip', live: '192.0.2.67', folded: '203.0.113.8' }] }),
          expect.objectContaining({ column: 'patch', live: '[]', folded: patch }),
        ],
      }),
    ]);

    // Bytes that differ but hold the same text are no difference (a row stored plain, as before the encoding).
    live.prepare('UPDATE service_revisions SET object = ?, patch = ? WHERE uid = ? AND resource_version = ?').run(object, patch, row.uid, row.rv);
    expect((await verify(ctx.dataDir)).differences).toBe(0);

    replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(dump(dbPath)).toEqual(before);
  });

  it('replay as the CLI runs it holds the server lock when no server runs, and paces itself when one does', async () => {
    const tryServerLock = () => {
      try {
        lockDataDirectory(ctx.dataDir).release();
        return 'free';
      } catch (error) {
        if (error instanceof DataDirectoryLockedError) return 'held';
        throw error;
      }
    };
    const seen: string[] = [];
    // Looked at while replay runs (its phases start synchronously inside it).
    const progress: Progress = { ...silentProgress, start: () => void seen.push(tryServerLock()) };
    const alone = await replayDataDirectory({ dataDir: ctx.dataDir, progress });
    expect(alone.alone).toBe(true);
    expect(new Set(seen)).toEqual(new Set(['held']));
    expect(tryServerLock()).toBe('free');

    // A server holds its lock: replay runs beside it, leaving the write lock free between transactions.
    const server = lockDataDirectory(ctx.dataDir);
    try {
      seen.length = 0;
      const beside = await replayDataDirectory({ dataDir: ctx.dataDir, progress });
      expect(beside.alone).toBe(false);
      expect(new Set(seen)).toEqual(new Set(['held']));
    } finally {
      server.release();
    }
    expect((await verify(ctx.dataDir)).differences).toBe(0);
  });

  it('replay folds in writes a running server commits while the fresh tables are built', async () => {
    const committer = ctx.app.get(GroupCommitter);
    let pending: Promise<unknown> | undefined;
    // Writes land between the build and the swap (the progress hook runs right before it): a
    // Service, an Event repeated, one deleted and one created, all in one commit.
    const progress: Progress = {
      ...silentProgress,
      start: (phase) => {
        if (phase !== 'swap') return;
        pending = Promise.all([
          writer.create('late', 'team-b'),
          writer.repeatEvent('web.1800000000000002', 'default', 4),
          writer.deleteEvent('web.1800000000000004', 'default'),
          writer.event('late.1800000000000005', 'team-b', 'late'),
        ]);
        committer.flush();
      },
    };
    const report = replayProjections({ dataDir: ctx.dataDir, progress });
    await pending;
    expect(report.caughtUpWrites).toBe(4);
    expect(report.resourceVersion).toBe(report.builtAt + 4);
    expect(report.tables.find((t) => t.table === 'services')!.changed).toBeNull();
    expect((await verify(ctx.dataDir)).differences).toBe(0);
    expect(writer.repository.loadLive('team-b', 'late').object).not.toBeNull();
    expect(live.prepare(`SELECT name, json_extract(object, '$.count') AS count FROM kube_events ORDER BY name`).all()).toEqual([
      { name: 'db.1800000000000003', count: 1 },
      { name: 'late.1800000000000005', count: 1 },
      { name: 'web.1800000000000002', count: 4 },
    ]);
  });

  it('replay never holds the write lock between its steps: a write that will not wait commits in every phase', async () => {
    const committer = ctx.app.get(GroupCommitter);
    const server = ctx.app.get<symbol, DatabaseHandle>(DATABASE).sqlite;
    const writes: Promise<unknown>[] = [];
    const phases: string[] = [];
    let phase = '';
    let wrote = '';
    // The first progress report of each phase writes through the app and commits it at once,
    // with no busy timeout: it fails if replay holds the lock at that moment.
    const progress: Progress = {
      ...silentProgress,
      start: (name) => void (phase = name),
      advance: () => {
        if (wrote === phase) return;
        wrote = phase;
        phases.push(phase);
        writes.push(writer.status('web', [`203.0.113.${100 + phases.length}`]));
        committer.flush();
      },
    };
    server.pragma('busy_timeout = 0');
    try {
      const report = replayProjections({ dataDir: ctx.dataDir, progress });
      await Promise.all(writes);
      expect(phases).toEqual(['fold projections', 'copy into the live file', 'index the new tables', 'swap', 'retire the old tables']);
      expect(report.caughtUpWrites).toBe(3); // the ones after the log's snapshot was taken: fold, copy into the live file, index
    } finally {
      server.pragma('busy_timeout = 5000');
    }
    expect((await verify(ctx.dataDir)).differences).toBe(0);
  });

  it('replay leaves the live data untouched when the swap fails, and removes its shadow tables', async () => {
    const before = dump(dbPath);
    const schemaBefore = schemaNames(live);
    live.prepare(`DELETE FROM services WHERE name = 'db'`).run(); // something replay would restore
    const tampered = dump(dbPath);
    // A table already holding the name the swap renames allocations to makes the swap's last rename fail.
    const progress: Progress = { ...silentProgress, start: (phase) => phase === 'swap' && live.exec('CREATE TABLE replay_retired_allocations (x)') };
    try {
      expect(() => replayProjections({ dataDir: ctx.dataDir, progress })).toThrow(/replay_retired_allocations/);
      expect(dump(dbPath)).toEqual(tampered);
      expect(schemaNames(live)).toEqual([...schemaBefore, 'table replay_retired_allocations replay_retired_allocations'].sort());
      expect(readdirSync(ctx.dataDir).filter((f) => f.startsWith('.svctrail-'))).toEqual([]);
    } finally {
      live.exec('DROP TABLE IF EXISTS replay_retired_allocations');
    }
    replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(dump(dbPath)).toEqual(before);
    expect(schemaNames(live)).toEqual(schemaBefore);
  });

  it('replay swaps every table, index, trigger and the R-tree under the names the migrations gave them', async () => {
    const before = live.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all() as { sql: string | null }[];
    const spans = live.prepare('SELECT * FROM ingress_interval_spans ORDER BY id').all();
    const report = replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(report.tables.every((t) => t.changed === 0)).toBe(true);
    const after = live.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all() as { sql: string | null }[];
    // A renamed table's CREATE statement quotes its new name with "…" where the migration wrote `…`.
    const unquoted = (rows: { sql: string | null }[]) => rows.map((r) => ({ ...r, sql: r.sql?.replace(/[`"]/g, '') }));
    expect(unquoted(after)).toEqual(unquoted(before));
    expect(live.prepare('SELECT * FROM ingress_interval_spans ORDER BY id').all()).toEqual(spans);
    expect(live.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(report.lock.transactions).toBeGreaterThan(1);
    // the R-tree's triggers moved with the new table: a write through the app lands in it
    // (an interval enters the R-tree when it is closed)
    const opened = Number((await writer.status('db', ['198.51.100.2'], [], 'team-a')).object.metadata.resourceVersion);
    expect(live.prepare('SELECT count(*) FROM ingress_interval_spans WHERE from_rv = ?').pluck().get(opened)).toBe(0);
    const closed = Number((await writer.status('db', ['198.51.100.3'], [], 'team-a')).object.metadata.resourceVersion);
    expect(live.prepare('SELECT from_rv, to_rv FROM ingress_interval_spans WHERE from_rv = ?').all(opened)).toEqual([{ from_rv: opened, to_rv: closed }]);
    expect((await verify(ctx.dataDir)).differences).toBe(0);
  });

  it('replay bulk-loads the shadow tables: filled bare, then every index built and every trigger created once, before the catch-up and the swap', async () => {
    // Indexes and triggers on the shadow tables (an R-tree's own tables are never indexed).
    const shadowDerived = () =>
      live.prepare(`SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL AND tbl_name LIKE 'replay\\_shadow\\_%' ESCAPE '\\' ORDER BY type, name`).raw().all();
    const projectionDerived = live
      .prepare(
        `SELECT type, 'replay_shadow_' || name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
        AND tbl_name IN ('services', 'service_revisions', 'service_lifetimes', 'condition_transitions', 'ingress_intervals', 'allocations', 'ingress_interval_spans',
          'kube_events', 'kube_event_occurrences') ORDER BY 1, 2`,
      )
      .raw()
      .all();
    const seen: Record<string, unknown[]> = {};
    const spans = live.prepare('SELECT * FROM ingress_interval_spans ORDER BY id').all();
    let shadowSpans: unknown[] = [];
    const progress: Progress = {
      ...silentProgress,
      start: (phase) => {
        seen[phase] = shadowDerived();
        if (phase === 'index the new tables') shadowSpans = live.prepare('SELECT * FROM replay_shadow_ingress_interval_spans ORDER BY id').all();
      },
    };
    const report = replayProjections({ dataDir: ctx.dataDir, progress });
    expect(seen['copy into the live file']).toEqual([]);
    expect(seen['index the new tables']).toEqual([]);
    // the R-tree was copied whole from the scratch fold, not filled row by row through triggers
    expect(shadowSpans).toEqual(spans);
    expect(projectionDerived.length).toBeGreaterThan(10);
    expect(seen.swap).toEqual(projectionDerived);
    expect(report.tables.every((t) => t.changed === 0)).toBe(true);
    expect((await verify(ctx.dataDir)).differences).toBe(0);
  });

  it('replay builds each index once: the swap gives the shadow indexes their migration names over the same b-trees, no rebuild after it', async () => {
    const migrationIndexes = live.prepare(`SELECT name, tbl_name AS "table", sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name != 'events' ORDER BY name`).all() as {
      name: string;
      table: string;
      sql: string;
    }[];
    const rootpages = () => new Map((live.prepare(`SELECT name, rootpage FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).raw().all() as [string, number][]).map(([n, p]) => [n, p]));
    let shadowRootpages = new Map<string, number>();
    // Read as the swap ends: dropping the retired tables after it moves root pages about (the
    // file is in auto_vacuum mode, which keeps root pages at its start), the same b-trees moved.
    let after = new Map<string, number>();
    const progress: Progress = {
      ...silentProgress,
      start: (phase) => {
        if (phase === 'swap') shadowRootpages = rootpages();
        if (phase === 'retire the old tables') after = rootpages();
      },
    };
    const report = replayProjections({ dataDir: ctx.dataDir, progress });
    expect(migrationIndexes.length).toBeGreaterThan(10);
    // Replay rebuilds the projections' tables; the facts beside the log (mirror mode's) stay as they are.
    const projected = new Set(projectionTables(ctx.app.get<symbol, DatabaseHandle>(DATABASE)));
    for (const index of migrationIndexes.filter((i) => projected.has(i.table))) {
      // the b-tree built under the shadow name is the one the migration's name now points at
      expect([index.name, after.get(index.name)]).toEqual([index.name, shadowRootpages.get(`replay_shadow_${index.name}`)]);
    }
    // ...with the migration's own CREATE statement, and nothing prefixed is left
    expect(live.prepare(`SELECT name, tbl_name AS "table", sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name != 'events' ORDER BY name`).all()).toEqual(migrationIndexes);
    expect(live.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'replay\\_%' ESCAPE '\\'`).all()).toEqual([]);
    expect(live.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(report.lock.longest).not.toMatch(/under its own name/);
    expect(report.tables.every((t) => t.changed === 0)).toBe(true);
    expect((await verify(ctx.dataDir)).differences).toBe(0);
  });

  it('a server connection opened before the replay answers its INDEXED BY queries right after the swap and after the replay, through the new tables', async () => {
    const server = ctx.app.get<symbol, DatabaseHandle>(DATABASE).sqlite;
    const sql = 'SELECT count(*) FROM condition_transitions INDEXED BY condition_transitions_uid_type_rv WHERE uid = ?';
    const uid = live.prepare('SELECT uid FROM condition_transitions GROUP BY uid ORDER BY count(*) DESC LIMIT 1').pluck().get() as string;
    const count = server.prepare(sql).pluck(); // prepared before the replay, like the server's repositories
    const expected = count.get(uid) as number;
    expect(expected).toBeGreaterThan(0);
    const seen: Record<string, unknown> = {};
    const progress: Progress = {
      ...silentProgress,
      // the swap has committed; the retired tables (which held these names before) still exist
      start: (phase) => phase === 'retire the old tables' && void (seen.afterSwap = count.get(uid)),
    };
    replayProjections({ dataDir: ctx.dataDir, progress });
    expect(seen.afterSwap).toBe(expected);
    expect(count.get(uid)).toBe(expected);
    const plan = (server.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(uid) as { detail: string }[]).map((r) => r.detail);
    expect(plan).toEqual([expect.stringMatching(/^SEARCH condition_transitions USING (COVERING )?INDEX condition_transitions_uid_type_rv \(uid=\?\)$/)]);
  });

  it('replay works on a vacuumed store, which has no sqlite_sequence (no table is AUTOINCREMENT)', async () => {
    const before = dump(dbPath);
    live.exec('VACUUM');
    expect(live.prepare(`SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'`).all()).toEqual([]);
    const report = replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(report.tables.every((t) => t.changed === 0)).toBe(true);
    expect(dump(dbPath)).toEqual(before);
    expect((await verify(ctx.dataDir)).differences).toBe(0);
  });

  it('replay first removes what an interrupted replay left: shadow and retired tables, prefixed index and trigger names', async () => {
    const before = dump(dbPath);
    const schemaBefore = schemaNames(live);
    // As if a replay died after filling a shadow table, and another between its swap and renaming the indexes back.
    live.exec(`CREATE TABLE replay_shadow_services AS SELECT * FROM services`);
    live.exec(`CREATE TABLE replay_retired_allocations AS SELECT * FROM allocations`);
    live.exec(`DROP INDEX allocations_uid; CREATE INDEX replay_shadow_allocations_uid ON allocations (uid)`);
    const trigger = live.prepare(`SELECT sql FROM sqlite_master WHERE name = 'ingress_interval_spans_delete'`).pluck().get() as string;
    live.exec(`DROP TRIGGER ingress_interval_spans_delete; ${trigger.replace('TRIGGER ingress_interval_spans_delete', 'TRIGGER replay_shadow_ingress_interval_spans_delete')}`);

    replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(schemaNames(live)).toEqual(schemaBefore);
    expect(dump(dbPath)).toEqual(before);
    expect((await verify(ctx.dataDir)).differences).toBe(0);
  });

  it('replay refuses, changing nothing, when a view outside the projections reads a projection table', async () => {
    const before = dump(dbPath);
    live.exec('CREATE VIEW web_services AS SELECT name FROM services');
    try {
      expect(() => replayProjections({ dataDir: ctx.dataDir, progress: silentProgress })).toThrow(
        'replay renames the projection tables, which view web_services would follow to the old ones: drop it, replay, then create it again',
      );
      expect(dump(dbPath)).toEqual(before);
      expect(schemaNames(live).filter((n) => n.includes('replay_'))).toEqual([]);
    } finally {
      live.exec('DROP VIEW web_services');
    }
  });

  it('export → import into an empty directory reproduces every table byte for byte, and verify passes', async () => {
    const { text, report } = await exportText(ctx.dataDir);
    const lines = text.trimEnd().split('\n');
    expect(report).toMatchObject({ complete: true, afterResourceVersion: 0, events: lines.length });
    const first = JSON.parse(lines[0]);
    expect(Object.keys(first)).toEqual([
      'position',
      'resourceVersion',
      'streamId',
      'streamVersion',
      'namespace',
      'name',
      'type',
      'data',
      'recordedAt',
      'actorUser',
      'actorGroups',
      'userAgent',
      'fieldManager',
      'requestId',
      'verb',
      'subresource',
    ]);
    expect(first.data.object.metadata.name).toBe('kubernetes');

    const target = join(scratchRoot, 'imported');
    const imported = await importEvents({ dataDir: target, lines: linesOf(text), progress: silentProgress });
    expect(imported.events).toBe(lines.length);
    expect(readdirSync(target)).toEqual(['svctrail.db', 'svctrail.lock']);
    expect(dump(join(target, 'svctrail.db'))).toEqual(dump(dbPath));
    expect((await verify(target)).differences).toBe(0);
    // and the export of the import is the same text
    expect((await exportText(target)).text).toBe(text);
  });

  it('exports a window of whole writes by resourceVersion or time; only a whole log imports', async () => {
    const all = (await exportText(ctx.dataDir)).text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const rvs = [...new Set(all.map((e) => e.resourceVersion as number))];
    const [from, to] = [rvs[2], rvs[6]];
    const { text, report } = await exportText(ctx.dataDir, { since: String(from), until: String(to) });
    const window = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(window).toEqual(all.filter((e) => e.resourceVersion > from && e.resourceVersion <= to));
    expect(report.complete).toBe(false);

    const at = all.find((e) => e.resourceVersion === to).recordedAt as string;
    const byTime = await exportText(ctx.dataDir, { until: at });
    expect(byTime.report.throughResourceVersion).toBe(to);
    expect(
      byTime.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(all.filter((e) => e.resourceVersion <= to));

    const target = join(scratchRoot, 'window');
    await expect(importEvents({ dataDir: target, lines: linesOf(text), progress: silentProgress })).rejects.toThrow(/line 1: the log starts at position \d+, not 1: only a whole log/);
    expect(existsSync(target)).toBe(false);
    await expect(exportText(ctx.dataDir, { since: String(to), until: String(from) })).rejects.toThrow(/--since .* is after --until/);
    await expect(exportText(ctx.dataDir, { until: '999999' })).rejects.toThrow(/--until 999999 is newer than the log/);
  });

  it('import refuses a non-empty directory and bad lines, and leaves nothing behind', async () => {
    const { text } = await exportText(ctx.dataDir);
    const lines = text.trimEnd().split('\n');
    const attempt = (input: string, dir = join(scratchRoot, `bad-${Math.random().toString(36).slice(2)}`)) =>
      importEvents({ dataDir: dir, lines: linesOf(input), progress: silentProgress }).then(
        () => undefined,
        (error: Error) => {
          expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
          return error;
        },
      );
    const full = join(scratchRoot, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'something'), 'x');
    const notEmpty = await importEvents({ dataDir: full, lines: linesOf(text), progress: silentProgress }).catch((e: Error) => e);
    expect(notEmpty).toBeInstanceOf(MaintenanceError);
    expect((notEmpty as Error).message).toMatch(/data directory .*full is not empty \(something\)/);

    // Another process owns it (a server starting on an empty directory): refused, its lock kept.
    const owned = join(scratchRoot, 'owned');
    mkdirSync(owned);
    const lock = lockDataDirectory(owned);
    try {
      await expect(importEvents({ dataDir: owned, lines: linesOf(text), progress: silentProgress })).rejects.toThrow(DataDirectoryLockedError);
      expect(readdirSync(owned)).toEqual(['svctrail.lock']);
    } finally {
      lock.release();
    }

    expect((await attempt(`${lines[0]}\n{nope`))!.message).toMatch(/^line 2: not JSON/);
    expect((await attempt([lines[0], lines[2]].join('\n')))!.message).toMatch(/^line 2: position 3 does not follow 1/);
    const noType = JSON.parse(lines[1]);
    delete noType.type;
    expect((await attempt([lines[0], JSON.stringify(noType)].join('\n')))!.message).toBe('line 2: missing field type');
    expect((await attempt([lines[0], JSON.stringify({ ...JSON.parse(lines[1]), extra: 1 })].join('\n')))!.message).toBe('line 2: unknown field(s) extra');
    const unfoldable = { ...JSON.parse(lines[1]), type: 'ServiceSpecChanged', streamId: 'fresh-stream', streamVersion: 1 };
    expect((await attempt([lines[0], JSON.stringify(unfoldable)].join('\n')))!.message).toMatch(/do not fold into Services: ServiceSpecChanged applied to a Service that does not exist/);
  });

  it('replay --until builds the whole store at that point as a read-only data directory', async () => {
    const revisions = live.prepare('SELECT DISTINCT resource_version FROM events ORDER BY 1').pluck().all() as number[];
    const at = revisions[Math.floor(revisions.length / 2)];
    const out = join(scratchRoot, 'pit');
    const report = buildPointInTime({ dataDir: ctx.dataDir, until: parseLogPoint(String(at), '--until'), outDir: out, progress: silentProgress });
    expect(report.resourceVersion).toBe(at);
    expect(readdirSync(out).sort()).toEqual(['point-in-time.json', 'svctrail.db']);
    const pit = new Database(report.database);
    try {
      // the live table of the copy is the original's revisions as of `at`
      const asOf = live
        .prepare(
          `SELECT l.namespace, l.name, (SELECT object FROM service_revisions r WHERE r.uid = l.uid AND r.resource_version <= @at ORDER BY r.resource_version DESC LIMIT 1) AS object
           FROM service_lifetimes l WHERE l.created_resource_version <= @at AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > @at) ORDER BY 1, 2`,
        )
        .all({ at }) as { object: StoredText }[];
      expect(pit.prepare('SELECT namespace, name, object FROM services ORDER BY 1, 2').all()).toEqual(asOf.map((row) => ({ ...row, object: decodeStoredText(row.object) })));
      expect(pit.prepare('SELECT max(position) FROM events').pluck().get()).toBe(at);
      expect(() =>
        pit
          .prepare(
            `INSERT INTO events SELECT position + 1000, resource_version + 1000, stream_id, stream_version + 1000, namespace, name, type, data,
        recorded_at, actor_user, actor_groups, user_agent, field_manager, 'x', verb, subresource, packed_data, actor_groups_id, user_agent_id, field_manager_id, actor_user_id FROM events WHERE position = 1`,
          )
          .run(),
      ).toThrow(READ_ONLY_MESSAGE);
    } finally {
      pit.close();
    }
    expect((await verify(out)).differences).toBe(0);
    expect(() => buildPointInTime({ dataDir: ctx.dataDir, until: parseLogPoint('1', '--until'), outDir: out, progress: silentProgress })).toThrow(/--out .* is not empty/);
  });

  it('replay --until copies the Events live at that point: each as its last write then left it, with the lease it had, the ended ones gone', async () => {
    // Right after an Event was deleted (and before its name was created again), one expired before it, one repeated.
    const at = live.prepare(`SELECT min(position) FROM events WHERE type = 'KubeEventDeleted' AND name = 'db.1800000000000003'`).pluck().get() as number;
    const out = join(scratchRoot, 'pit-events');
    buildPointInTime({ dataDir: ctx.dataDir, until: parseLogPoint(String(at), '--until'), outDir: out, progress: silentProgress });
    // The live Events at `at`, from the facts alone: each stream's last fact up to `at`, unless it ended it.
    const expected = live
      .prepare(
        `SELECT e.namespace, e.name, e.stream_id AS uid, e.resource_version, e.stream_version, e.data, e.packed_data FROM events e
         WHERE e.type IN ('KubeEventCreated', 'KubeEventUpdated') AND e.position <= @at
           AND NOT EXISTS (SELECT 1 FROM events n WHERE n.stream_id = e.stream_id AND n.stream_version > e.stream_version AND n.position <= @at)
         ORDER BY 1, 2`,
      )
      .all({ at })
      .map(({ data, packed_data, ...row }: any) => ({ ...row, expires_at: JSON.parse(eventDataText({ plainData: data, packedData: packed_data })).expiresAt ?? null }));
    expect(expected.map((e: any) => e.name)).toEqual(['web.1800000000000002']);
    const pit = new Database(join(out, 'svctrail.db'), { readonly: true });
    try {
      const copied = pit.prepare('SELECT namespace, name, uid, resource_version, stream_version, expires_at, object FROM kube_events ORDER BY 1, 2').all() as Record<string, unknown>[];
      expect(copied.map(({ object: _object, ...row }) => row)).toEqual(expected);
      expect(JSON.parse(copied[0].object as string)).toMatchObject({ count: 2, metadata: { name: 'web.1800000000000002', resourceVersion: String(copied[0].resource_version) } });
      // Every write of an Event up to `at` is an occurrence of the copy, the expiry and the deletion included.
      expect(pit.prepare('SELECT resource_version FROM kube_event_occurrences ORDER BY 1').pluck().all()).toEqual(
        live.prepare(`SELECT position FROM events WHERE type LIKE 'KubeEvent%' AND position <= ? ORDER BY 1`).pluck().all(at),
      );
    } finally {
      pit.close();
    }
    expect((await verify(out)).differences).toBe(0);
  });

  it('reads a point as a resourceVersion or an RFC 3339 time and rejects anything else', () => {
    expect(parseLogPoint('42', '--until')).toEqual({ kind: 'resourceVersion', resourceVersion: 42 });
    expect(parseLogPoint('2026-01-02T04:04:05+01:00', '--until')).toEqual({ kind: 'time', time: '2026-01-02T03:04:05.000Z' });
    for (const bad of ['-1', '4.2', 'yesterday', '2026-01-02', '2026-13-02T00:00:00Z', '']) {
      expect(() => parseLogPoint(bad, '--until')).toThrow(InvalidArgumentError);
    }
  });

  // Last: the store stays compacted.
  it('compact removes revision objects only: every Event fact and occurrence stays, the Events answer as before, and verify, replay and export/import stay clean', async () => {
    const eventRows = () => ({
      facts: live.prepare(`SELECT * FROM events WHERE type LIKE 'KubeEvent%' ORDER BY position`).all(),
      live: live.prepare('SELECT * FROM kube_events ORDER BY namespace, name').all(),
      occurrences: live.prepare('SELECT * FROM kube_event_occurrences ORDER BY resource_version').all(),
    });
    const reads = new KubeEventLog(new SqliteSqlReader(ctx.app.get<symbol, DatabaseHandle>(DATABASE)));
    const answers = async () => {
      const head = await reads.head();
      const pages = [];
      for (let until = 0; until <= head; until++) pages.push(await reads.writtenPage({ afterPosition: 0, untilPosition: until, limit: 100 }));
      return { pages, web: await reads.written('default', 'web.1800000000000002') };
    };
    const [rowsBefore, answersBefore] = [eventRows(), await answers()];
    expect(rowsBefore.facts.length).toBeGreaterThan(8);
    const head = live.prepare('SELECT max(position) FROM events').pluck().get() as number;
    const outcome = await ctx.app.get<HistoryCompactor>(HISTORY_COMPACTOR).compact({ point: { kind: 'resourceVersion', resourceVersion: head }, actor: 'test:compactor' });
    expect(outcome).toMatchObject({ kind: 'compacted', compaction: { horizon: { resourceVersion: head } } });
    expect(live.prepare('SELECT count(*) FROM revision_facts').pluck().get()).toBeGreaterThan(0);
    expect(eventRows()).toEqual(rowsBefore);
    expect(await answers()).toEqual(answersBefore);

    expect((await verify(ctx.dataDir)).differences).toBe(0);
    const replay = replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(replay.tables.filter((t) => t.changed !== 0)).toEqual([]);
    expect(eventRows()).toEqual(rowsBefore);
    const { text } = await exportText(ctx.dataDir);
    const target = join(scratchRoot, 'compacted-import');
    await importEvents({ dataDir: target, lines: linesOf(text), progress: silentProgress });
    expect(dump(join(target, 'svctrail.db'))).toEqual(dump(dbPath));
    expect((await verify(target)).differences).toBe(0);
  });
});
