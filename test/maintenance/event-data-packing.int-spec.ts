// A store written before packed event data (migration 0014) is converted when opened: the
// migration adds the column, the conversion packs every event a batch per transaction, an
// interrupted conversion resumes (here: two batches by a command, the rest by a starting
// server), and afterwards the store verifies, exports the same NDJSON byte for byte and has the
// same facts checksum as the store it was made from.
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
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
import { EventDataPacking } from '../../src/store/event-data-packing';
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

/** The store at `path` as svctrail wrote it before migration 0014: every event's data and repeated texts as text, no repeated_texts, the old trigger. */
function unconvert(path: string): void {
  const db = new Database(path);
  try {
    db.function('unpacked', (packed: Buffer | null, data: string) => (packed === null ? data : decodeStoredText(packed)));
    db.exec(`
      DROP TRIGGER events_no_update;
      UPDATE events SET data = unpacked(packed_data, data),
        actor_groups = coalesce((SELECT text FROM repeated_texts WHERE id = actor_groups_id), actor_groups),
        user_agent = coalesce((SELECT text FROM repeated_texts WHERE id = user_agent_id), user_agent),
        field_manager = coalesce((SELECT text FROM repeated_texts WHERE id = field_manager_id), field_manager);
      DROP INDEX events_unpacked;
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

describe('packing the event data of a store written before it', () => {
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
    unconvert(join(oldDir, 'svctrail.db'));
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
    expect(db.prepare("SELECT name FROM pragma_table_info('events')").pluck().all()).not.toContain('packed_data');
    db.close();
    expect(statSync(path).size).toBe(bytes);
  });

  it('given the older store, when opened, then it migrates and is converted in batches, resumably, to the same facts', async () => {
    const path = join(oldDir, 'svctrail.db');
    const before = new Database(path, { readonly: true });
    expect((before.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('events') as string[]).includes('packed_data')).toBe(false);
    expect((before.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('events') as string[]).includes('user_agent_id')).toBe(false);
    before.close();

    // A command opens it (migration 0014) and packs two small batches, then stops (interrupted).
    const handle = openDatabase({ path, migrationsFolder: MIGRATIONS, synchronous: 'NORMAL' });
    const packing = new EventDataPacking(new SqliteSqlWriter(handle));
    expect(await packing.remaining()).toBe(original.events);
    expect(await packing.step(3)).toBe(3);
    expect(await packing.step(4)).toBe(4);
    expect(await packing.remaining()).toBe(original.events - 7);
    // Half converted, the store reads the same: every reader takes both forms.
    expect(await exportText(oldDir)).toBe(original.exported);
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
      expect(after.prepare(`SELECT count(*) FROM events WHERE data <> '' OR actor_groups <> '' OR user_agent <> '' OR field_manager <> ''`).pluck().get()).toBe(0);
      expect(after.prepare('SELECT count(*) FROM events WHERE actor_groups_id IS NULL OR user_agent_id IS NULL OR field_manager_id IS NULL').pluck().get()).toBe(0);
      // Each text once, however many events repeat it.
      expect(after.prepare('SELECT count(*) FROM repeated_texts').pluck().get()).toBeLessThan(original.events / 2);
      // The conversion's reader is the partial index, empty once done.
      expect(
        after
          .prepare('EXPLAIN QUERY PLAN SELECT position, data FROM events WHERE packed_data IS NULL AND position > ? ORDER BY position LIMIT ?')
          .all(0, 10)
          .map((r: any) => r.detail),
      ).toEqual(['SEARCH events USING INDEX events_unpacked (position>?)']);
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
