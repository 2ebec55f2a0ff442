// A store written before packed event data (migration 0014) is converted when opened: the
// migration adds the column, the conversion packs every event a batch per transaction, an
// interrupted conversion resumes (here: two batches by a command, the rest by a starting
// server), and afterwards the store verifies, exports the same NDJSON byte for byte and has the
// same facts checksum as the store it was made from.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import Database from 'better-sqlite3';
import { AppModule } from '../../src/app.module';
import { runHistory } from '../../src/cli/history.command';
import { validateConfig } from '../../src/config/app-config';
import { exportEvents } from '../../src/maintenance/event-exporter';
import { silentProgress } from '../../src/maintenance/progress';
import { verifyProjections } from '../../src/maintenance/projection-verifier';
import { FixedClock } from '../../src/shared/clock';
import { openDatabase } from '../../src/store/database';
import { EventDataPacker } from '../../src/store/event-data-packer';
import { EventDataPacking, UNCONVERTED } from '../../src/store/event-data-packing';
import { ChangeHistoryRepository } from '../../src/store/change-history-repository';
import { factsChecksum } from '../../src/store/facts-checksum';
import { decodeStoredText } from '../../src/store/stored-text-codec';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';
import { SqliteSqlWriter } from '../../src/store/sqlite-sql-writer';
import { type AppContext, createAppContext, deterministicIds } from '../helpers/app-context';
import { foldLogAndCompare } from '../helpers/log-fold';
import { StoreWriter } from './store-fixture';

const MIGRATIONS = join(__dirname, '..', '..', 'migrations');

async function exportText(dataDir: string): Promise<string> {
  let text = '';
  await exportEvents({ dataDir, write: async (chunk) => void (text += chunk), progress: silentProgress });
  return text;
}

/** An era of older stores: before packed event data (migration 0014), or before dense actors (0015). */
type Era = 14 | 15;

/** 0014's events_no_update trigger, as a store of that era has it. */
const TRIGGER_0014 = (() => {
  const sql = readFileSync(join(MIGRATIONS, '0014_dense_events.sql'), 'utf8');
  const from = sql.indexOf('CREATE TRIGGER events_no_update');
  return sql.slice(from, sql.indexOf('END;', from) + 'END;'.length);
})();

/**
 * The store at `path` as svctrail wrote it before migration `era`: before 0014, every event's data
 * and repeated texts as text, no repeated_texts, the old trigger; before 0015, the actor user as
 * text (the rest dense), 0014's trigger and conversion index.
 */
function unconvert(path: string, era: Era): void {
  const db = new Database(path);
  try {
    db.function('unpacked', (packed: Buffer | null, data: string) => (packed === null ? data : decodeStoredText(packed)));
    const text = (column: string) => `${column} = coalesce((SELECT text FROM repeated_texts WHERE id = ${column}_id), ${column})`;
    db.exec(`
      DROP TRIGGER events_no_update;
      UPDATE events SET ${text('actor_user')};
      DROP INDEX events_actor_position;
      ALTER TABLE events DROP COLUMN actor_user_id;
      CREATE INDEX events_actor_position ON events (actor_user, position);
      DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations);
    `);
    if (era === 15) {
      db.exec(`CREATE INDEX events_unpacked ON events (position) WHERE packed_data IS NULL; ${TRIGGER_0014} VACUUM;`);
      return;
    }
    db.exec(`
      UPDATE events SET data = unpacked(packed_data, data), ${text('actor_groups')}, ${text('user_agent')}, ${text('field_manager')};
      ALTER TABLE events DROP COLUMN packed_data;
      ALTER TABLE events DROP COLUMN actor_groups_id;
      ALTER TABLE events DROP COLUMN user_agent_id;
      ALTER TABLE events DROP COLUMN field_manager_id;
      DROP TABLE repeated_texts;
      CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
      DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations);
      VACUUM;
    `);
  } finally {
    db.close();
  }
}

describe.each([
  ['before packed event data (migration 0014)', 14],
  ['before dense actors (migration 0015)', 15],
] as [string, Era][])('converting a store written %s', (_era, era) => {
  let ctx: AppContext;
  let oldDir: string;
  let original: { exported: string; checksum: string; events: number };

  beforeAll(async () => {
    ctx = await createAppContext();
    const writer = new StoreWriter(ctx);
    await writer.history();
    await writer.eventHistory();
    const db = new Database(join(ctx.dataDir, 'svctrail.db'), { readonly: true });
    const head = db.prepare('SELECT max(position) FROM events').pluck().get() as number;
    const checksum = await factsChecksum(new SqliteSqlReader({ sqlite: db, statement: (sql: string) => db.prepare(sql) }), { after: 0, through: head }, null);
    db.close();
    original = { exported: await exportText(ctx.dataDir), checksum, events: head };
    oldDir = mkdtempSync(join(tmpdir(), 'svctrail-unpacked-'));
    const live = new Database(join(ctx.dataDir, 'svctrail.db'));
    live.exec(`VACUUM INTO '${join(oldDir, 'svctrail.db')}'`);
    live.close();
    for (const file of ['ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv', 'policy.jsonl']) {
      try {
        copyFileSync(join(ctx.dataDir, file), join(oldDir, file));
      } catch {
        // (Not every data directory holds every file.)
      }
    }
    unconvert(join(oldDir, 'svctrail.db'), era);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(oldDir, { recursive: true, force: true });
  });

  it('given the older store, when the read commands open it (unmigrated), then they read it as written and leave it so', async () => {
    const path = join(oldDir, 'svctrail.db');
    const bytes = statSync(path).size;
    // Export, verify and a history query (through the same read-only open the query commands use).
    expect(await exportText(oldDir)).toBe(original.exported);
    expect((await verifyProjections({ dataDir: oldDir, maxDifferences: 20, progress: silentProgress })).differences).toBe(0);
    const db = new Database(path, { readonly: true });
    const busiest = db.prepare('SELECT namespace, name, count(DISTINCT resource_version) AS writes FROM events GROUP BY namespace, name ORDER BY writes DESC LIMIT 1').get() as {
      namespace: string;
      name: string;
      writes: number;
    };
    const lines: string[] = [];
    expect(await runHistory([`${busiest.namespace}/${busiest.name}`, '-o', 'json', '--limit', '500', '--data-dir', oldDir], (l) => lines.push(l))).toBe(0);
    const changes = (JSON.parse(lines.join('\n')).items as { kind: string }[]).filter((i) => i.kind === 'ServiceChange');
    expect(changes).toHaveLength(busiest.writes);
    // Still the older store: nothing migrated, nothing converted.
    expect(db.prepare("SELECT name FROM pragma_table_info('events')").pluck().all()).not.toContain(era === 14 ? 'packed_data' : 'actor_user_id');
    db.close();
    expect(statSync(path).size).toBe(bytes);
  });

  it('given the older store, when opened, then it migrates and is converted in batches, resumably, to the same facts', async () => {
    const path = join(oldDir, 'svctrail.db');
    const before = new Database(path, { readonly: true });
    const columns = before.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('events') as string[];
    expect([columns.includes('packed_data'), columns.includes('user_agent_id'), columns.includes('actor_user_id')]).toEqual(era === 14 ? [false, false, false] : [true, true, false]);
    // Who wrote what, as the older store names them: the change log's ?actor= must find the same writes in every form.
    const byActor = before.prepare('SELECT DISTINCT actor_user AS actor, resource_version AS rv FROM events WHERE stream_id IN (SELECT uid FROM services) ORDER BY rv').all() as {
      actor: string;
      rv: number;
    }[];
    const actor = byActor[byActor.length - 1].actor;
    const actorWrites = byActor.filter((w) => w.actor === actor).map((w) => w.rv);
    before.close();
    const writesOf = async (db: Database.Database) =>
      new ChangeHistoryRepository(new SqliteSqlReader({ sqlite: db, statement: (sql: string) => db.prepare(sql) })).matchingWrites(
        { fromRv: 1, toRv: original.events, fromPosition: 1, actor, uid: undefined },
        1000,
      );

    // A command opens it (migration 0014) and packs two small batches, then stops (interrupted).
    const handle = openDatabase({ path, migrationsFolder: MIGRATIONS, synchronous: 'NORMAL' });
    const packing = new EventDataPacking(new SqliteSqlWriter(handle));
    expect(await packing.remaining()).toBe(original.events);
    expect(await packing.step(3)).toBe(3);
    expect(await packing.step(4)).toBe(4);
    expect(await packing.remaining()).toBe(original.events - 7);
    // Half converted, the store reads the same: every reader takes both forms.
    expect(await exportText(oldDir)).toBe(original.exported);
    expect(await writesOf(handle.sqlite)).toEqual(actorWrites);
    // The log is still append-only but for the packing: any other change is refused.
    expect(() => handle.sqlite.prepare(`UPDATE events SET type = 'x' WHERE position = 1`).run()).toThrow(/append-only/);
    expect(() => handle.sqlite.prepare(`UPDATE events SET packed_data = x'00', data = '' WHERE position = 1`).run()).toThrow(/append-only/);
    expect(() => handle.sqlite.prepare(`UPDATE events SET packed_data = x'00', data = '', actor_user = 'x' WHERE position = 20`).run()).toThrow(/append-only/);
    expect(() => handle.sqlite.prepare('DELETE FROM events WHERE position = 20').run()).toThrow(/append-only/);
    handle.close();

    // A server starts on it and packs the rest in the background.
    const app = await NestFactory.createApplicationContext(
      AppModule.register(validateConfig({ port: 0, dataDir: oldDir, logLevel: 'silent' }), new FixedClock(new Date('2026-01-03T00:00:00.000Z')), deterministicIds(2)),
      { logger: false },
    );
    await app.init();
    await app.get(EventDataPacker).settled();
    await app.close();

    const after = new Database(path, { readonly: true });
    try {
      expect(after.prepare('SELECT count(*) FROM events WHERE packed_data IS NULL').pluck().get()).toBe(0);
      expect(after.prepare(`SELECT count(*) FROM events WHERE data <> '' OR actor_user <> '' OR actor_groups <> '' OR user_agent <> '' OR field_manager <> ''`).pluck().get()).toBe(0);
      expect(after.prepare('SELECT count(*) FROM events WHERE actor_user_id IS NULL OR actor_groups_id IS NULL OR user_agent_id IS NULL OR field_manager_id IS NULL').pluck().get()).toBe(0);
      // Converted, ?actor= reads the actor index by id.
      expect(await writesOf(after)).toEqual(actorWrites);
      // Each text once, however many events repeat it.
      expect(after.prepare('SELECT count(*) FROM repeated_texts').pluck().get()).toBeLessThan(original.events / 2);
      // The conversion's reader is the actor index's NULL key, empty once done.
      expect(
        after
          .prepare(`EXPLAIN QUERY PLAN ${UNCONVERTED.replace(/\$\d/g, '?')}`)
          .all(0, 10)
          .map((r: any) => r.detail),
      ).toEqual(['SEARCH events USING INDEX events_actor_position (actor_user_id=? AND position>?)']);
      const checksum = await factsChecksum(new SqliteSqlReader({ sqlite: after, statement: (sql: string) => after.prepare(sql) }), { after: 0, through: original.events }, null);
      expect(checksum).toBe(original.checksum);
    } finally {
      after.close();
    }
    expect(await exportText(oldDir)).toBe(original.exported);
    const report = await verifyProjections({ dataDir: oldDir, maxDifferences: 20, progress: silentProgress });
    expect(report.differences).toBe(0);
    expect(foldLogAndCompare(path).differences).toEqual([]);
  });
});
