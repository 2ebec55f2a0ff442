// Moving a store between engines and keeping PostgreSQL's projections honest: a SQLite history
// (Services, and controllers' Events beside them) exported, imported into PostgreSQL and
// exported again gives the same bytes, and back into SQLite too; both engines then answer every
// read alike and hold the same rows. verify folds the PostgreSQL log and finds a corrupted row;
// replay rebuilds the tables (while Service and Event writes arrive) and verify passes again.
import { repeatedText } from '../../src/store/sql/event-columns';
import { packRemainingEventData } from '../../src/maintenance/event-data-conversion';
import { EventDataPacking } from '../../src/store/event-data-packing';
import { decodeStoredText } from '../../src/store/stored-text-codec';
import type { Logger } from 'pino';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Client } from 'pg';
import { PgSqlWriter } from '../../src/store/postgres/pg-sql-writer';
import { openReadOnlyStore } from '../../src/cli/read-only-store';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceWriteRunner } from '../../src/commands/service-write-runner';
import { LOGGER } from '../../src/observability/logging.module';
import { ClusterNetwork } from '../../src/config/cluster-network';
import type { Service } from '../../src/domain/service.types';
import { ChangeFeed } from '../../src/feed/change-feed';
import { exportEvents } from '../../src/maintenance/event-exporter';
import { importEvents } from '../../src/maintenance/event-importer';
import { MaintenanceError } from '../../src/maintenance/maintenance-error';
import { exportPgEvents } from '../../src/maintenance/postgres/pg-event-exporter';
import { importPgEvents } from '../../src/maintenance/postgres/pg-event-importer';
import { replayPgProjections } from '../../src/maintenance/postgres/pg-projection-replayer';
import { verifyPgProjections } from '../../src/maintenance/postgres/pg-projection-verifier';
import { silentProgress } from '../../src/maintenance/progress';
import { FixedClock } from '../../src/shared/clock';
import type { DatabaseHandle } from '../../src/store/database';
import { PgServiceReadStore } from '../../src/store/postgres/pg-service-read-store';
import { PgServiceWriteStore } from '../../src/store/postgres/pg-service-write-store';
import { openPostgres, POSTGRES_MIGRATIONS_FOLDER, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { SERVICE_READ_STORE } from '../../src/store/ports/service-read-store';
import type { ServiceReadStore, ServiceReads } from '../../src/store/ports/service-read-store';
import { DATABASE } from '../../src/store/ports/store.tokens';
import { type AppContext, createAppContext, deterministicIds } from '../helpers/app-context';
import { createTestDatabase, describePostgres, dropTestDatabase, type PostgresTestDatabase } from '../helpers/postgres';
import { handlersOn } from '../helpers/service-handlers';
import { as, loadBalancer, recorderEvent, StoreWriter } from './store-fixture';
import { readLog } from '../../src/projections/log-reader';
import { PROJECTION_TABLES, ProjectionRowFold, rowColumns } from '../../src/maintenance/projection-row-fold';
import { PROJECTION_KEYS } from '../../src/maintenance/postgres/pg-projection-comparison';
import { parseLogPoint } from '../../src/maintenance/log-point';
import { KubeEventLog } from '../../src/store/kube-event-log';
import type { KubeEvents } from '../../src/store/ports/kube-events';
import { PgSqlReader } from '../../src/store/postgres/pg-sql-reader';
import { pgHistoryCompactor } from '../../src/store/postgres/pg-history-compactor';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';
import { PgAppendQueue } from '../../src/store/postgres/pg-append-queue';
import { PgKubeEventWriteStore } from '../../src/store/postgres/pg-kube-event-write-store';
import { KubeEventWriteRunner } from '../../src/kube-events/commands/kube-event-write-runner';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { decideKubeEventCreate, decideKubeEventDelete, decideKubeEventReplace } from '../../src/domain/kube-event/kube-event.decider';

/** When a PostgreSQL migration was made (its journal entry): an older store lacks it and every later one. */
const migrationWhen = (tag: string) =>
  (JSON.parse(readFileSync(join(POSTGRES_MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] }).entries.find((e) => e.tag === tag)!.when;
const DENSE_EVENTS_MIGRATION_WHEN = migrationWhen('0012_dense_events');
const DENSE_ACTORS_MIGRATION_WHEN = migrationWhen('0014_dense_actors');
/** 0012's append-only trigger function (what a store between 0012 and 0014 has). */
const APPEND_ONLY_0012 = (() => {
  const sql = readFileSync(join(POSTGRES_MIGRATIONS_FOLDER, '0012_dense_events.sql'), 'utf8');
  const from = sql.indexOf('CREATE OR REPLACE FUNCTION events_append_only()');
  return sql.slice(from, sql.indexOf('$$;', from) + 3);
})();

async function* linesOf(text: string) {
  for (const line of text.split('\n')) yield line;
}

async function sqliteExport(dataDir: string): Promise<string> {
  let text = '';
  await exportEvents({ dataDir, write: async (chunk) => void (text += chunk), progress: silentProgress });
  return text;
}

async function pgExport(url: string): Promise<string> {
  let text = '';
  await exportPgEvents({ url, write: async (chunk) => void (text += chunk), progress: silentProgress });
  return text;
}

const verify = (url: string) => verifyPgProjections({ url, maxDifferences: 20, progress: silentProgress });

/** Every projection row (and the log), in key order, as both engines store them. */
const TABLES: Record<string, string> = {
  events: `SELECT position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at, actor_user,
             ${repeatedText('actor_groups')} AS actor_groups, ${repeatedText('user_agent')} AS user_agent, ${repeatedText('field_manager')} AS field_manager,
             request_id, verb, subresource, packed_data FROM events ORDER BY position`,
  services: 'SELECT namespace, name, uid, resource_version, stream_version, object FROM services ORDER BY namespace, name',
  service_revisions: 'SELECT uid, resource_version, namespace, name, recorded_at, object FROM service_revisions ORDER BY uid, resource_version',
  service_lifetimes: 'SELECT uid, namespace, name, created_resource_version, deleted_resource_version FROM service_lifetimes ORDER BY uid',
  condition_transitions: `SELECT id, resource_version, uid, namespace, name, condition_type, from_status, to_status, reason, message,
                            observed_generation, last_transition_time, recorded_at, actor_user FROM condition_transitions ORDER BY id`,
  ingress_intervals: `SELECT id, address, address_type, uid, namespace, name, from_resource_version, from_time, set_by,
                        to_resource_version, to_time, cleared_by FROM ingress_intervals ORDER BY id`,
  allocations: 'SELECT kind, value, uid FROM allocations ORDER BY kind, value',
  kube_events: 'SELECT namespace, name, uid, resource_version, stream_version, object, expires_at FROM kube_events ORDER BY namespace, name',
  kube_event_occurrences: `SELECT resource_version, uid, namespace, name, involved_kind, involved_namespace, involved_name, involved_uid, type, reason,
                             reporting_controller FROM kube_event_occurrences ORDER BY resource_version`,
};

async function pgRows(handle: PostgresHandle): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, sql] of Object.entries(TABLES)) out[table] = (await handle.pool.query(sql)).rows;
  return out;
}

function sqliteRows(handle: DatabaseHandle): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [table, sql] of Object.entries(TABLES)) out[table] = handle.sqlite.prepare(sql).all();
  return out;
}

/** The read store's answers over the whole history: head, live, LIST pages and GETs as of every resourceVersion. */
async function everyRead(reads: ServiceReadStore, names: readonly (readonly [string, string])[]): Promise<Record<string, unknown>> {
  const head = await reads.head();
  const out: Record<string, unknown> = { head };
  const pages = async (r: ServiceReads, asOf: number | undefined, namespace?: string) => {
    const rows = [];
    for (let after: { namespace: string; name: string } | undefined; ;) {
      const page = await r.listPage({ namespace, after, asOf, limit: 2 });
      rows.push(page);
      if (page.length < 2) break;
      after = page[page.length - 1];
    }
    return rows;
  };
  out.live = await pages(reads, undefined);
  for (const [namespace, name] of names) out[`live ${namespace}/${name}`] = await reads.liveJson(namespace, name);
  for (let rv = 0; rv <= head + 1; rv++) {
    out[`list@${rv}`] = await pages(reads, rv);
    out[`list default@${rv}`] = await pages(reads, rv, 'default');
    for (const [namespace, name] of names) out[`${namespace}/${name}@${rv}`] = await reads.jsonAsOf(namespace, name, rv);
  }
  return out;
}

/** The Events API's reads of written Events: each LIST page as of every resourceVersion, and every live Event. */
async function everyEventRead(events: KubeEvents, names: readonly (readonly [string, string])[]): Promise<Record<string, unknown>> {
  const head = await events.head();
  const out: Record<string, unknown> = { head };
  for (let until = 0; until <= head; until++) {
    for (const namespace of [undefined, 'default']) out[`written ${namespace ?? '*'}@${until}`] = await events.writtenPage({ namespace, afterPosition: 0, untilPosition: until, limit: 100 });
  }
  for (const [namespace, name] of names) out[`written ${namespace}/${name}`] = await events.written(namespace, name);
  out.expired = await events.expired('2030-01-01T00:00:00.000Z', 100);
  return out;
}

const EVENT_NAMES = [
  ['default', 'web.1800000000000002'],
  ['default', 'web.1800000000000004'],
  ['default', 'api.1800000000000001'],
  ['team-a', 'db.1800000000000003'],
] as const;

const NAMES = [
  ['default', 'kubernetes'],
  ['default', 'web'],
  ['default', 'api'],
  ['team-a', 'db'],
] as const;

describe('ProjectionRowFold', () => {
  let ctx: AppContext;
  beforeAll(async () => {
    ctx = await createAppContext(4);
    const writer = new StoreWriter(ctx);
    await writer.history();
    await writer.eventHistory();
  });
  afterAll(() => ctx?.close());

  it('folds the log into exactly the rows of the live SQLite projections, stored revision patches included', () => {
    const handle = ctx.app.get<DatabaseHandle>(DATABASE);
    const options = { revisionPatches: true };
    const fold = new ProjectionRowFold(options);
    for (const event of readLog({ sqlite: handle.sqlite }, handle.sqlite)) fold.add(event);
    fold.present();
    const rows = fold.take();
    for (const table of PROJECTION_TABLES) {
      const columns = rowColumns(table, options).map(([c]) => c);
      const key = PROJECTION_KEYS[table];
      const live = handle.sqlite.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${key.join(', ')}`).all();
      const folded = (rows.get(table) ?? [])
        .map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])))
        .sort((a, b) => {
          for (const k of key) if (a[k] !== b[k]) return (a[k] as string | number) < (b[k] as string | number) ? -1 : 1;
          return 0;
        });
      // revision_facts: only a compaction fills it (none here).
      if (table === 'revision_facts') expect(live).toEqual([]);
      else expect(live.length).toBeGreaterThan(0);
      expect({ table, rows: folded }).toEqual({ table, rows: live });
    }
    expect(fold.writes).toBeGreaterThan(10);
  });
});

describePostgres('moving a store between SQLite and PostgreSQL; verify and replay on PostgreSQL', (database) => {
  let ctx: AppContext;
  let pg: PostgresHandle;
  let exported = '';
  const others: PostgresTestDatabase[] = [];
  const scratchDirs: string[] = [];

  beforeAll(async () => {
    ctx = await createAppContext(3);
    const writer = new StoreWriter(ctx);
    await writer.history();
    await writer.eventHistory();
    exported = await sqliteExport(ctx.dataDir);
    pg = await openPostgres(database().url);
  });
  afterAll(async () => {
    await pg?.close();
    await ctx?.close();
    for (const other of others) await dropTestDatabase(other.name);
    for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('imports a SQLite export into an empty PostgreSQL database and exports the same bytes from it', async () => {
    expect(exported.split('\n').length).toBeGreaterThan(15);
    const report = await importPgEvents({ url: database().url, lines: linesOf(exported), progress: silentProgress });
    expect(report.events).toBe(exported.trimEnd().split('\n').length);
    expect(report.resourceVersion).toBe(await ctx.app.get<ServiceReadStore>(SERVICE_READ_STORE).head());
    expect(await pgExport(database().url)).toBe(exported);
  });

  it('holds the same rows as the SQLite store, and answers every read alike', async () => {
    expect(await pgRows(pg)).toEqual(sqliteRows(ctx.app.get<DatabaseHandle>(DATABASE)));
    const fromSqlite = await everyRead(ctx.app.get<ServiceReadStore>(SERVICE_READ_STORE), NAMES);
    const fromPg = await everyRead(new PgServiceReadStore(pg.pool), NAMES);
    expect(fromSqlite.head).toBeGreaterThan(10);
    expect(fromPg).toEqual(fromSqlite);
    const eventsFromSqlite = await everyEventRead(new KubeEventLog(new SqliteSqlReader(ctx.app.get<DatabaseHandle>(DATABASE))), EVENT_NAMES);
    expect(eventsFromSqlite['written default/web.1800000000000002']).toBeDefined();
    expect(await everyEventRead(new KubeEventLog(new PgSqlReader(() => pg.pool)), EVENT_NAMES)).toEqual(eventsFromSqlite);
  });

  it('exports the same window of writes as SQLite, by resourceVersion and by time', async () => {
    const head = await new PgServiceReadStore(pg.pool).head();
    const windows = [{ since: '3', until: String(head - 2) }, { since: '2026-01-02T03:04:08.000Z' }, { until: '2026-01-02T03:04:10.000Z' }];
    for (const window of windows) {
      const points = { since: window.since ? parseLogPoint(window.since, '--since') : undefined, until: window.until ? parseLogPoint(window.until, '--until') : undefined };
      let fromSqlite = '';
      let fromPg = '';
      const a = await exportEvents({ dataDir: ctx.dataDir, ...points, write: async (c) => void (fromSqlite += c), progress: silentProgress });
      const b = await exportPgEvents({ url: database().url, ...points, write: async (c) => void (fromPg += c), progress: silentProgress });
      expect({ window, text: fromPg }).toEqual({ window, text: fromSqlite });
      expect(fromPg.length).toBeGreaterThan(0);
      expect({ ...b, database: '' }).toEqual({ ...a, database: '' });
    }
    await expect(exportPgEvents({ url: database().url, until: parseLogPoint(String(head + 1), '--until'), write: async () => undefined, progress: silentProgress })).rejects.toThrow(
      /--until \d+ is newer than the log/,
    );
  });

  it('moves back into SQLite with the same bytes and the same answers', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svctrail-pg-back-')), 'data');
    scratchDirs.push(join(dataDir, '..'));
    await importEvents({ dataDir, lines: linesOf(await pgExport(database().url)), progress: silentProgress });
    expect(await sqliteExport(dataDir)).toBe(exported);
  });

  it('refuses to import into a database that holds events, and leaves it as it was', async () => {
    const before = await pgRows(pg);
    await expect(importPgEvents({ url: database().url, lines: linesOf(exported), progress: silentProgress })).rejects.toThrow(MaintenanceError);
    await expect(importPgEvents({ url: database().url, lines: linesOf(exported), progress: silentProgress })).rejects.toThrow(/is not empty \(rows in events, services/);
    expect(await pgRows(pg)).toEqual(before);
  });

  it('leaves an empty database empty when the input is refused halfway (truncated inside a write)', async () => {
    const other = await createTestDatabase();
    others.push(other);
    const lines = exported.trimEnd().split('\n');
    // Cut inside a write of several events (a creation appends more than one).
    const multi = lines.findIndex((line, i) => i > 0 && JSON.parse(line).resourceVersion > JSON.parse(line).position);
    expect(multi).toBeGreaterThan(0);
    const truncated = lines.slice(0, multi + 1).join('\n');
    await expect(importPgEvents({ url: other.url, lines: linesOf(truncated), progress: silentProgress })).rejects.toThrow(/ends inside the write/);
    const handle = await openPostgres(other.url);
    try {
      const rows = await pgRows(handle);
      for (const table of Object.keys(TABLES)) expect({ table, rows: rows[table] }).toEqual({ table, rows: [] });
    } finally {
      await handle.close();
    }
    // ...and it can take the whole export afterwards.
    await importPgEvents({ url: other.url, lines: linesOf(exported), progress: silentProgress });
    expect(await pgExport(other.url)).toBe(exported);
  });

  it('refuses a database without a store, and one it cannot reach, without creating anything', async () => {
    const bare = await createTestDatabase();
    others.push(bare);
    for (const run of [() => verify(bare.url), () => replayPgProjections({ url: bare.url, progress: silentProgress }), () => pgExport(bare.url)]) {
      await expect(run()).rejects.toThrow(/no svctrail store in the PostgreSQL database postgres:\/\/svctrail_test:\*\*\*@.* \(no events table\)/);
    }
    const client = new Client({ connectionString: bare.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await client.end();
    }
    const unreachable = new URL(bare.url);
    unreachable.port = '1';
    await expect(verify(unreachable.toString())).rejects.toThrow(MaintenanceError);
    await expect(verify(unreachable.toString())).rejects.toThrow(/cannot read PostgreSQL at postgres:\/\/svctrail_test:\*\*\*@127\.0\.0\.1:1\//);
  });

  it('verifies the imported projections', async () => {
    const report = await verify(database().url);
    expect(report.differences).toBe(0);
    expect(report.resourceVersion).toBe(await new PgServiceReadStore(pg.pool).head());
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
    expect(report.tables.find((t) => t.table === 'condition_transitions')!.liveRows).toBeGreaterThan(0);
    expect(report.tables.find((t) => t.table === 'kube_events')!.liveRows).toBe(3);
    expect(report.tables.find((t) => t.table === 'kube_event_occurrences')!.liveRows).toBe(9);
  });

  /** A new database holding the exported store, then made older by `undo` (run on a session of its own). */
  const olderStore = async (undo: (old: Client) => Promise<void>) => {
    const other = await createTestDatabase();
    others.push(other);
    await importPgEvents({ url: other.url, lines: linesOf(exported), progress: silentProgress });
    const old = new Client({ connectionString: other.url });
    await old.connect();
    try {
      await undo(old);
    } finally {
      await old.end();
    }
    return other;
  };

  it('converts a store written before packed event data, in batches, resumably, to the same export', async () => {
    // Migration 0012 (dense events) and every later one are undone below, their tables dropped:
    // drizzle applies the migrations newer than the newest recorded.
    // The store as svctrail wrote it before migration 0012: every event's data JSON text, no packed_data column.
    const other = await olderStore(async (old) => {
      await old.query('ALTER TABLE events DISABLE TRIGGER events_no_update');
      const { rows } = await old.query<{ position: number; packed_data: Buffer }>('SELECT position, packed_data FROM events ORDER BY position');
      for (const row of rows) await old.query('UPDATE events SET data = $1, packed_data = NULL WHERE position = $2', [decodeStoredText(row.packed_data), row.position]);
      await old.query(`UPDATE events SET actor_user = (SELECT text FROM repeated_texts WHERE id = actor_user_id), actor_groups = (SELECT text FROM repeated_texts WHERE id = actor_groups_id),
        user_agent = (SELECT text FROM repeated_texts WHERE id = user_agent_id), field_manager = (SELECT text FROM repeated_texts WHERE id = field_manager_id)`);
      await old.query(`DROP INDEX events_actor_position; CREATE INDEX events_actor_position ON events (actor_user, position);
        ALTER TABLE events DROP COLUMN packed_data, DROP COLUMN actor_user_id, DROP COLUMN actor_groups_id, DROP COLUMN user_agent_id, DROP COLUMN field_manager_id;
        DROP TABLE repeated_texts; DROP FUNCTION repeated_texts_append_only(); DROP FUNCTION svctrail_text_id(text); ALTER TABLE events ENABLE TRIGGER events_no_update;
        CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RAISE EXCEPTION 'events are append-only'; END $f$;
        DROP TABLE write_leader;
        DELETE FROM drizzle.__drizzle_migrations WHERE created_at >= ${DENSE_EVENTS_MIGRATION_WHEN}`);
    });
    // A read command, which migrates nothing, refuses it with what to do (no stand-in is possible in a read-only session).
    await expect(openReadOnlyStore({ engine: 'postgres', url: other.url })).rejects.toThrow(/written by an older svctrail .*start this version's server on it/);
    // Opened (migration 0012), two batches packed, then stopped; a command packs the rest.
    const handle = await openPostgres(other.url);
    try {
      const packing = new EventDataPacking(new PgSqlWriter(handle.pool));
      const events = await packing.remaining();
      expect(events).toBe(exported.trimEnd().split('\n').length);
      expect(await packing.step(3)).toBe(3);
      expect(await packing.step(4)).toBe(4);
      expect(await packing.remaining()).toBe(events - 7);
      expect(await pgExport(other.url)).toBe(exported);
      await expect(handle.pool.query(`UPDATE events SET packed_data = '\\x00', data = '', actor_user = 'x' WHERE position = 20`)).rejects.toThrow(/append-only/);
      expect(await packRemainingEventData(new PgSqlWriter(handle.pool), silentProgress)).toBe(events - 7);
      expect(
        (
          await handle.pool.query(
            `SELECT count(*)::int AS n FROM events WHERE packed_data IS NULL OR data <> '' OR actor_user <> '' OR actor_groups <> '' OR user_agent_id IS NULL OR actor_user_id IS NULL`,
          )
        ).rows[0].n,
      ).toBe(0);
    } finally {
      await handle.close();
    }
    expect(await pgExport(other.url)).toBe(exported);
    expect((await verify(other.url)).differences).toBe(0);
  });

  it('converts a store written before dense actors (its data packed, its actor users as text), resumably, to the same export', async () => {
    // The store as svctrail wrote it between migrations 0012 and 0014: every actor user as text, 0012's trigger and conversion index.
    const other = await olderStore(async (old) => {
      await old.query('ALTER TABLE events DISABLE TRIGGER events_no_update');
      await old.query('UPDATE events SET actor_user = (SELECT text FROM repeated_texts WHERE id = actor_user_id)');
      await old.query(`DROP INDEX events_actor_position; CREATE INDEX events_actor_position ON events (actor_user, position);
        CREATE INDEX events_unpacked ON events (position) WHERE packed_data IS NULL; ALTER TABLE events DROP COLUMN actor_user_id;
        ALTER TABLE events ENABLE TRIGGER events_no_update;
        DELETE FROM drizzle.__drizzle_migrations WHERE created_at >= ${DENSE_ACTORS_MIGRATION_WHEN}`);
      await old.query(APPEND_ONLY_0012);
    });
    const handle = await openPostgres(other.url);
    try {
      const packing = new EventDataPacking(new PgSqlWriter(handle.pool));
      const events = await packing.remaining();
      expect(events).toBe(exported.trimEnd().split('\n').length);
      expect(await packing.step(5)).toBe(5);
      // Half converted, and converted: the same export.
      expect(await pgExport(other.url)).toBe(exported);
      // Each move on its own; nothing else.
      await expect(handle.pool.query(`UPDATE events SET actor_user = '' WHERE position = 20`)).rejects.toThrow(/append-only/);
      await expect(handle.pool.query(`UPDATE events SET verb = 'x' WHERE position = 2`)).rejects.toThrow(/append-only/);
      expect(await packRemainingEventData(new PgSqlWriter(handle.pool), silentProgress)).toBe(events - 5);
      expect((await handle.pool.query(`SELECT count(*)::int AS n FROM events WHERE actor_user <> '' OR actor_user_id IS NULL OR packed_data IS NULL`)).rows[0].n).toBe(0);
    } finally {
      await handle.close();
    }
    expect(await pgExport(other.url)).toBe(exported);
    expect((await verify(other.url)).differences).toBe(0);
  });

  describe('after rows are corrupted', () => {
    let indexesBefore: unknown[];
    const indexes = async () => (await pg.pool.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`)).rows;

    beforeAll(async () => {
      indexesBefore = await indexes();
      await pg.pool.query(`UPDATE services SET object = replace(object, '"203.0.113.8"', '"192.0.2.99"') WHERE namespace = 'default' AND name = 'web'`);
      await pg.pool.query(`DELETE FROM allocations WHERE kind = 'node-port' AND uid = (SELECT uid FROM services WHERE namespace = 'team-a' AND name = 'db')`);
      await pg.pool.query(`UPDATE condition_transitions SET reason = 'Tampered' WHERE id = 1`);
      await pg.pool.query(`INSERT INTO ingress_intervals (id, address, address_type, uid, namespace, name, from_resource_version, from_time, set_by)
                           VALUES (1000, '192.0.2.1', 'ip', 'nobody', 'default', 'ghost', 1, '2026-01-01T00:00:00.000Z', 'intruder')`);
      // A live Event whose lease was stretched, and an occurrence of an Event that was never written.
      await pg.pool.query(`UPDATE kube_events SET expires_at = '2099-01-01T00:00:00.000Z' WHERE namespace = 'team-a' AND name = 'db.1800000000000003'`);
      await pg.pool.query(`INSERT INTO kube_event_occurrences SELECT resource_version + 100000, 'ghost', namespace, 'ghost', involved_kind, involved_namespace, involved_name,
                             involved_uid, type, reason, reporting_controller FROM kube_event_occurrences ORDER BY resource_version LIMIT 1`);
    });

    it('verify reports each difference, naming the field', async () => {
      const report = await verify(database().url);
      const byTable = Object.fromEntries(report.tables.map((t) => [t.table, t.differences]));
      expect(byTable).toEqual({
        services: 1,
        service_revisions: 0,
        revision_facts: 0,
        service_lifetimes: 0,
        condition_transitions: 1,
        ingress_intervals: 1,
        allocations: 1,
        kube_events: 1,
        kube_event_occurrences: 1,
      });
      expect(report.differences).toBe(6);
      expect(report.samples.find((s) => s.table === 'kube_events')).toMatchObject({
        kind: 'changed',
        key: { namespace: 'team-a', name: 'db.1800000000000003' },
        columns: [{ column: 'expires_at', live: '2099-01-01T00:00:00.000Z' }],
      });
      expect(report.samples.find((s) => s.table === 'kube_event_occurrences')).toMatchObject({ kind: 'unexpected', row: { uid: 'ghost' } });
      const web = report.samples.find((s) => s.table === 'services')!;
      expect(web).toMatchObject({ kind: 'changed', key: { namespace: 'default', name: 'web' } });
      expect(web.columns![0].fields).toEqual([{ path: '.status.loadBalancer.ingress[0].ip', live: '192.0.2.99', folded: '203.0.113.8' }]);
      expect(report.samples.find((s) => s.table === 'allocations')).toMatchObject({ kind: 'missing', row: { kind: 'node-port' } });
      expect(report.samples.find((s) => s.table === 'ingress_intervals')).toMatchObject({ kind: 'unexpected', key: { id: 1000 } });
      expect(report.samples.find((s) => s.table === 'condition_transitions')).toMatchObject({ kind: 'changed', columns: [{ column: 'reason', live: 'Tampered' }] });
    });

    it('replay rebuilds them while writes arrive, keeps every write and the indexes, and verify passes again', async () => {
      const clock = new FixedClock(new Date('2026-06-01T00:00:00.000Z'));
      const ids = {
        ...deterministicIds(99),
        newUid: (() => {
          let n = 0;
          return () => `during-replay-${++n}`;
        })(),
      };
      const queue = new PgAppendQueue(pg.writePool);
      const logger = ctx.app.get<Logger>(LOGGER);
      const handlers = handlersOn(new ServiceWriteRunner(new PgServiceWriteStore(pg.writePool, clock, undefined, queue), new ChangeFeed(), ctx.app.get(ClusterNetwork), ids, logger), ids);
      const events = new KubeEventWriteRunner(new PgKubeEventWriteStore(pg.writePool, clock, queue), new ChangeFeed(), ids, ctx.app.get<AppConfig>(APP_CONFIG), logger);
      const repeatEvent = (namespace: string, name: string, count: number) =>
        events.run(
          {
            namespace,
            name,
            verb: 'patch',
            decide: (state, context) => decideKubeEventReplace({ kind: 'ReplaceKubeEvent', namespace, name, object: { ...state.object!, count }, api: 'v1', patch: true }, state, context),
          },
          as('recorder'),
        );
      const reads = new PgServiceReadStore(pg.pool);
      const setIngress = async (namespace: string, name: string, ip: string) => {
        const current = JSON.parse((await reads.liveJson(namespace, name))!) as Service;
        clock.advance(1000);
        return handlers.execute({ kind: 'ReplaceServiceStatus', namespace, name, object: { ...current, status: { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } } } }, as('lb-controller'));
      };
      const headBefore = await reads.head();
      const report = await replayPgProjections({
        url: database().url,
        progress: silentProgress,
        step: async (name) => {
          if (name === 'built') {
            // Folded in a catch-up round: a status change of a Service the build saw, a new one, a deletion.
            await setIngress('default', 'web', '203.0.113.50');
            await handlers.execute({ kind: 'CreateService', namespace: 'team-b', object: loadBalancer('new', 'team-b') }, as('creator'));
            await handlers.execute({ kind: 'DeleteService', namespace: 'default', name: 'api' }, as('operator'));
            // And Events: one repeated, one deleted, one created.
            await repeatEvent('default', 'web.1800000000000002', 4);
            await events.run(
              {
                namespace: 'default',
                name: 'web.1800000000000004',
                verb: 'delete',
                decide: (state, context) => decideKubeEventDelete({ kind: 'DeleteKubeEvent', namespace: 'default', name: 'web.1800000000000004' }, state, context),
              },
              as('operator'),
            );
            const created = recorderEvent('new.1800000000000009', 'team-b', 'new');
            await events.run(
              {
                namespace: 'team-b',
                name: created.metadata.name!,
                verb: 'create',
                decide: (state, context) => decideKubeEventCreate({ kind: 'CreateKubeEvent', namespace: 'team-b', object: created, api: 'v1' }, state, context),
              },
              as('recorder'),
            );
          } else if (name === 'caught-up') {
            // Folded under the append lock, in the swap's transaction: a Service's write and an Event's, one statement.
            await Promise.all([setIngress('team-a', 'db', '198.51.100.77'), repeatEvent('team-a', 'db.1800000000000003', 2)]);
          }
        },
      });
      expect(report.builtAt).toBe(headBefore);
      expect(report.caughtUpWrites).toBe(8);
      expect(report.swapWrites).toBe(2);
      const head = await reads.head();
      expect(report.resourceVersion).toBe(head);
      expect(report.tables.map((t) => [t.table, t.changed])).toEqual(report.tables.map((t) => [t.table, null]));

      const after = await verify(database().url);
      expect(after.samples).toEqual([]);
      expect(after.differences).toBe(0);
      expect(after.resourceVersion).toBe(head);
      expect(JSON.parse((await reads.liveJson('default', 'web'))!).status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.50', ipMode: 'VIP' }]);
      expect(JSON.parse((await reads.liveJson('team-a', 'db'))!).status.loadBalancer.ingress).toEqual([{ ip: '198.51.100.77', ipMode: 'VIP' }]);
      expect(await reads.liveJson('default', 'api')).toBeUndefined();
      expect(await reads.liveJson('team-b', 'new')).toBeDefined();
      const { rows: liveEvents } = await pg.pool.query<{ name: string; count: number }>(`SELECT name, (object::jsonb->>'count')::int AS count FROM kube_events ORDER BY name`);
      expect(liveEvents).toEqual([
        { name: 'db.1800000000000003', count: 2 },
        { name: 'new.1800000000000009', count: 1 },
        { name: 'web.1800000000000002', count: 4 },
      ]);
      // The same indexes and constraints, under the same names; no shadow table left.
      expect(await indexes()).toEqual(indexesBefore);
      const { rows } = await pg.pool.query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE '%replay%'`);
      expect(rows).toEqual([]);
      // The database still refuses what it refused: a second holder of an allocated value.
      const held = (await pg.pool.query<{ value: string }>(`SELECT value FROM allocations WHERE kind = 'cluster-ip' LIMIT 1`)).rows[0].value;
      await expect(pg.pool.query(`INSERT INTO allocations (kind, value, uid) VALUES ('cluster-ip', $1, 'x')`, [held])).rejects.toMatchObject({ code: '23505' });
    });

    it('replay keeps a write that waits for the append lock during the swap', async () => {
      const clock = new FixedClock(new Date('2026-07-01T00:00:00.000Z'));
      const ids = { ...deterministicIds(98), newUid: () => 'waited-for-the-swap' };
      const handlers = handlersOn(new ServiceWriteRunner(new PgServiceWriteStore(pg.writePool, clock), new ChangeFeed(), ctx.app.get(ClusterNetwork), ids, ctx.app.get<Logger>(LOGGER)), ids);
      let write: Promise<unknown> | undefined;
      const report = await replayPgProjections({
        url: database().url,
        progress: silentProgress,
        step: async (name) => {
          if (name !== 'locked') return;
          write = handlers.execute({ kind: 'CreateService', namespace: 'team-c', object: loadBalancer('late', 'team-c') }, as('creator'));
          write.catch(() => undefined);
          // Until the write waits for the append lock the swap holds.
          for (;;) {
            const { rows } = await pg.pool.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
            if (rows.length) break;
          }
        },
      });
      const created = (await write!) as { object: Service };
      const reads = new PgServiceReadStore(pg.pool);
      expect(Number(created.object.metadata.resourceVersion)).toBe(report.resourceVersion + 1);
      expect(await reads.head()).toBe(report.resourceVersion + 1);
      expect(JSON.parse((await reads.liveJson('team-c', 'late'))!).metadata.uid).toBe('waited-for-the-swap');
      const { rows } = await pg.pool.query(`SELECT count(*)::int AS n FROM allocations WHERE uid = 'waited-for-the-swap'`);
      expect(rows[0].n).toBeGreaterThan(0);
      expect((await verify(database().url)).differences).toBe(0);
    });

    it('replay gives up, leaving the live tables as they were, when a reader holds a table past the lock timeout', async () => {
      const before = await pgRows(pg);
      const reader = await pg.pool.connect();
      try {
        await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM allocations');
        await expect(replayPgProjections({ url: database().url, progress: silentProgress, swapLockTimeoutMs: 200 })).rejects.toThrow(
          /replay could not take the append lock and the projection tables within 200 ms/,
        );
      } finally {
        await reader.query('COMMIT');
        reader.release();
      }
      expect(await pgRows(pg)).toEqual(before);
      const { rows } = await pg.pool.query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE '%replay%'`);
      expect(rows).toEqual([]);
      // Writes go on: the append lock was released with the swap's transaction.
      expect((await verify(database().url)).differences).toBe(0);
    });

    it('replay with no write meanwhile counts what it changed, and a second replay changes nothing', async () => {
      await pg.pool.query(`UPDATE services SET object = replace(object, '"203.0.113.50"', '"192.0.2.98"') WHERE namespace = 'default' AND name = 'web'`);
      const first = await replayPgProjections({ url: database().url, progress: silentProgress });
      expect(first.caughtUpWrites).toBe(0);
      expect(Object.fromEntries(first.tables.map((t) => [t.table, t.changed]))).toMatchObject({ services: 1, allocations: 0, condition_transitions: 0 });
      const second = await replayPgProjections({ url: database().url, progress: silentProgress });
      expect(second.tables.every((t) => t.changed === 0)).toBe(true);
      expect((await verify(database().url)).differences).toBe(0);
    });

    it('compact removes revision objects only: every Event fact and occurrence stays, the Events answer as before, verify and replay stay clean, and the store moves to SQLite', async () => {
      const eventRows = async () => ({
        facts: (await pg.pool.query(`SELECT * FROM events WHERE type LIKE 'KubeEvent%' ORDER BY position`)).rows,
        live: (await pg.pool.query(TABLES.kube_events)).rows,
        occurrences: (await pg.pool.query(TABLES.kube_event_occurrences)).rows,
      });
      const reads = new KubeEventLog(new PgSqlReader(() => pg.pool));
      const [rowsBefore, answersBefore] = [await eventRows(), await everyEventRead(reads, EVENT_NAMES)];
      const head = await reads.head();
      const outcome = await pgHistoryCompactor(pg.pool, new FixedClock(new Date('2026-08-01T00:00:00.000Z'))).compact({
        point: { kind: 'resourceVersion', resourceVersion: head },
        actor: 'test:compactor',
      });
      expect(outcome).toMatchObject({ kind: 'compacted', compaction: { horizon: { resourceVersion: head } } });
      expect((await pg.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM revision_facts')).rows[0].n).toBeGreaterThan(0);
      expect(await eventRows()).toEqual(rowsBefore);
      expect(await everyEventRead(reads, EVENT_NAMES)).toEqual(answersBefore);
      expect((await verify(database().url)).differences).toBe(0);
      const replay = await replayPgProjections({ url: database().url, progress: silentProgress });
      expect(replay.tables.filter((t) => t.changed !== 0)).toEqual([]);
      expect(await eventRows()).toEqual(rowsBefore);
      // Into SQLite and out again: the same lines, the compaction's last.
      const text = await pgExport(database().url);
      expect(text.trimEnd().split('\n').pop()).toMatch(/^\{"compaction":/);
      const dataDir = join(mkdtempSync(join(tmpdir(), 'svctrail-pg-compacted-')), 'data');
      scratchDirs.push(join(dataDir, '..'));
      await importEvents({ dataDir, lines: linesOf(text), progress: silentProgress });
      expect(await sqliteExport(dataDir)).toBe(text);
    });
  });
});
