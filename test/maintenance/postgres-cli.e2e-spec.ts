// The maintenance commands across engines as an operator runs them (`node cli.js …` in a child
// process): a SQLite data directory exported, imported with --storage into PostgreSQL, verified
// and replayed there (the URL from SVCTRAIL_STORAGE too), exported again byte for byte and
// imported back into a new data directory. The commands whose answers are compared run in the
// jest process (runCliInProcess: the same code, about 1 s of CPU less each); the URL taken from
// SVCTRAIL_STORAGE, the refusals' exit codes and an export to stdout stay child processes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppContext, createAppContext } from '../helpers/app-context';
import { describePostgres } from '../helpers/postgres';
import { runBuiltCli } from '../helpers/built-cli';
import { runCliInProcess } from '../helpers/cli-in-process';
import { buildDist, removeBuild } from '../helpers/server-process';
import { StoreWriter } from './store-fixture';

const cli = runBuiltCli;
const inProcess = runCliInProcess;

describePostgres('svctrail export/import/verify/replay with --storage', (database) => {
  let ctx: AppContext;
  let root: string;

  beforeAll(async () => {
    buildDist();
    root = mkdtempSync(join(tmpdir(), 'svctrail-pg-cli-'));
    ctx = await createAppContext(5);
    const writer = new StoreWriter(ctx);
    await writer.history();
    await writer.eventHistory();
  }, 180000);
  afterAll(async () => {
    await ctx?.close();
    removeBuild();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('moves a store into PostgreSQL and back through the command line, byte for byte', async () => {
    const fromSqlite = join(root, 'sqlite.ndjson');
    expect((await inProcess(['export', '--data-dir', ctx.dataDir, '--out', fromSqlite])).code).toBe(0);

    const imported = await inProcess(['import', '--storage', database().url, fromSqlite, '-o', 'json']);
    expect(imported).toMatchObject({ code: 0 });
    const events = readFileSync(fromSqlite, 'utf8').trimEnd().split('\n').length;
    expect(JSON.parse(imported.stdout)).toMatchObject({ events, database: expect.stringContaining('***') });

    const fromPg = join(root, 'pg.ndjson');
    const exported = await inProcess(['export', '--storage', database().url, '--out', fromPg]);
    expect(exported.stdout).toContain(`exported ${events} events`);
    expect(readFileSync(fromPg, 'utf8')).toBe(readFileSync(fromSqlite, 'utf8'));

    const verified = await cli(['verify'], { SVCTRAIL_STORAGE: database().url });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^OK: \d+ events/m);
    const replayed = await inProcess(['replay', '--storage', database().url, '-o', 'json']);
    expect(replayed.code).toBe(0);
    const tables = JSON.parse(replayed.stdout).tables as { table: string; rows: number; changed: number }[];
    expect(tables.map((t) => t.changed)).toEqual(tables.map(() => 0));
    expect(tables.filter((t) => t.table.startsWith('kube_event')).map((t) => [t.table, t.rows])).toEqual([
      ['kube_events', 3],
      ['kube_event_occurrences', 9],
    ]);

    // Refusals: a second import (exit 1), a data directory beside the URL and --until (exit 2).
    const again = await cli(['import', '--storage', database().url, fromPg]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/svctrail import: the PostgreSQL database postgres:\/\/svctrail_test:\*\*\*@.* is not empty/);
    for (const args of [
      ['verify', '--storage', database().url, '--data-dir', ctx.dataDir],
      ['replay', '--storage', database().url, '--until', '3', '--out', join(root, 'x')],
      ['export', '--storage', 'mysql://somewhere/db'],
    ]) {
      const result = await cli(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain('--help for usage');
    }

    const back = join(root, 'back');
    expect((await inProcess(['import', '--data-dir', back, fromPg])).code).toBe(0);
    const fromBack = await cli(['export', '--data-dir', back]);
    expect(fromBack.stdout).toBe(readFileSync(fromSqlite, 'utf8'));
  });
});
