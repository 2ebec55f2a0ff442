// `svctrail get | history | conditions | owners | who-had` on PostgreSQL, as an operator runs them
// (`node cli.js …` in a child process): one history written to SQLite and imported into
// PostgreSQL answers byte for byte the same on both engines, for every command and flag tried;
// and the --storage refusals of the maintenance commands hold for the read commands too. The
// comparison of answers runs its 50 commands in this process (runCliInProcess, the same code the
// process runs): it is about what the engines answer; every test of the process itself (the
// environment, exit codes, messages, what is left written) runs the compiled CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type AppContext, createAppContext } from '../helpers/app-context';
import { createTestDatabase, describePostgres, dropTestDatabase } from '../helpers/postgres';
import { runBuiltCli } from '../helpers/built-cli';
import { runCliInProcess } from '../helpers/cli-in-process';
import { buildDist, removeBuild } from '../helpers/server-process';
import { StoreWriter } from '../maintenance/store-fixture';

const cli = runBuiltCli;

async function tablesOf(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT schemaname || '.' || tablename AS name FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`);
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

describePostgres('history CLI commands with --storage postgres://', (database) => {
  let ctx: AppContext;
  let root: string;
  /** Times of writes of the fixture's history, read from the change log. */
  let times: { webFirstStatus: string; apiDeleted: string; last: string };

  beforeAll(async () => {
    buildDist();
    root = mkdtempSync(join(tmpdir(), 'svctrail-history-cli-pg-'));
    ctx = await createAppContext(7);
    await new StoreWriter(ctx).history();
    const exported = join(root, 'store.ndjson');
    expect((await cli(['export', '--data-dir', ctx.dataDir, '--out', exported])).code).toBe(0);
    expect(await cli(['import', '--storage', database().url, exported])).toMatchObject({ code: 0 });

    const web = JSON.parse((await cli(['history', 'default/web', '--data-dir', ctx.dataDir, '-o', 'json'])).stdout).items;
    const api = JSON.parse((await cli(['history', 'default/api', '--data-dir', ctx.dataDir, '-o', 'json'])).stdout).items;
    times = {
      webFirstStatus: web[1].time,
      apiDeleted: api.find((c: { verb: string }) => c.verb === 'delete').time,
      last: api[api.length - 1].time,
    };
  }, 240000);
  afterAll(async () => {
    await ctx?.close();
    removeBuild();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Each command line, run on SQLite (--data-dir) and on PostgreSQL (--storage). */
  const commands = (): string[][] => [
    ['get', 'default/web'],
    ['get', 'default/web', '-o', 'json'],
    ['get', 'default/web', '--resource-version', '4', '-o', 'json'],
    ['get', 'default/api', '--at', times.webFirstStatus],
    ['get', 'default/api', '--at', times.apiDeleted],
    ['get', 'default/web', '--resource-version', '999'],
    ['history', 'default/web'],
    ['history', 'default/web', '-o', 'json'],
    ['history', 'default/api', '-o', 'yaml'],
    ['history', 'default/web', '--limit', '2', '-o', 'json'],
    ['history', 'default/web', '--actor', 'lb-controller', '--since', times.webFirstStatus],
    ['history', 'default/api', '--event-type', 'ServiceDeleted', '-o', 'json'],
    ['conditions', 'default/web', '--until', times.last],
    ['conditions', 'default/web', '--until', times.last, '-o', 'json'],
    ['conditions', 'default/api', '--type', 'Ready', '--since', times.webFirstStatus, '--until', times.last, '--flap-threshold', '1', '-o', 'yaml'],
    ['owners', 'default/web'],
    ['owners', 'default/web', '.status.loadBalancer', '-o', 'json'],
    ['owners', 'default/web', '.status', '--at', times.webFirstStatus],
    ['owners', 'default/web', '--manager', 'lb-controller', '-o', 'yaml'],
    ['owners', 'default/web', '.spec.nothing'],
    ['who-had', '203.0.113.7'],
    ['who-had', '203.0.113.8', '-o', 'json'],
    ['who-had', '203.0.113.7', '--at', times.webFirstStatus],
    ['who-had', '203.0.113.9', '--from', times.webFirstStatus, '--to', times.last, '-o', 'yaml'],
    ['who-had', '192.0.2.1'],
  ];

  it('every read command prints the same bytes and exits the same on SQLite and PostgreSQL', async () => {
    let answered = 0;
    for (const args of commands()) {
      const [sqlite, postgres] = await Promise.all([runCliInProcess([...args, '--data-dir', ctx.dataDir]), runCliInProcess([...args, '--storage', database().url])]);
      expect({ args, ...postgres }).toEqual({ args, ...sqlite });
      if (sqlite.code === 0) answered++;
    }
    // The comparison is of answers, not of two identical refusals.
    expect(answered).toBeGreaterThanOrEqual(commands().length - 2);
    const web = JSON.parse((await runCliInProcess(['get', 'default/web', '-o', 'json', '--storage', database().url])).stdout);
    expect(web.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.8', ipMode: 'VIP' }]);
    expect((await runCliInProcess(['who-had', '203.0.113.7', '--storage', database().url])).stdout).toMatch(/^default\/web\s/m);
  }, 300000);

  it('takes the store from SVCTRAIL_STORAGE, the flag winning over it', async () => {
    const sqlite = await cli(['history', 'default/web', '--data-dir', ctx.dataDir]);
    expect(await cli(['history', 'default/web'], { SVCTRAIL_STORAGE: database().url })).toEqual(sqlite);
    expect(await cli(['history', 'default/web', '--storage', 'sqlite', '--data-dir', ctx.dataDir], { SVCTRAIL_STORAGE: database().url })).toEqual(sqlite);
  });

  it('refuses a data directory beside a PostgreSQL URL and a storage that is neither, as usage errors', async () => {
    for (const [args, env] of [
      [['get', 'default/web', '--storage', database().url, '--data-dir', ctx.dataDir], {}],
      [['owners', 'default/web', '--data-dir', ctx.dataDir], { SVCTRAIL_STORAGE: database().url }],
      [['who-had', '203.0.113.7', '--storage', 'mysql://u:hunter2@somewhere/db'], {}],
    ] as [string[], Record<string, string>][]) {
      const result = await cli(args, env);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(result.stderr).toContain('--help for usage');
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stderr).not.toContain('svctrail_test:svctrail_test');
    }
    expect((await cli(['get', 'default/web', '--storage', database().url, '--data-dir', ctx.dataDir])).stderr).toMatch(/--data-dir is for the SQLite store/);
  });

  it('refuses an unreachable server and a database without a store with a message, creating nothing', async () => {
    const unreachable = await cli(['history', 'default/web', '--storage', 'postgres://svctrail_test:hunter2@127.0.0.1:1/nowhere']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^svctrail history: cannot read PostgreSQL at postgres:\/\/svctrail_test:\*\*\*@127\.0\.0\.1:1\/nowhere: /);
    expect(unreachable.stderr).not.toContain('hunter2');
    expect(unreachable.stderr).not.toMatch(/^\s+at /m);

    const empty = await createTestDatabase();
    try {
      for (const args of [
        ['get', 'default/web'],
        ['history', 'default/web'],
        ['conditions', 'default/web'],
        ['owners', 'default/web'],
        ['who-had', '203.0.113.7'],
      ]) {
        const result = await cli([...args, '--storage', empty.url]);
        expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 1, stdout: '' });
        expect(result.stderr).toMatch(new RegExp(`^svctrail ${args[0]}: no svctrail store in the PostgreSQL database postgres://svctrail_test:\\*\\*\\*@`));
        expect(result.stderr).not.toMatch(/^\s+at /m);
      }
      expect(await tablesOf(empty.url)).toEqual([]);
    } finally {
      await dropTestDatabase(empty.name);
    }
  });

  it('only reads: applies no migration and leaves the store as it was', async () => {
    const before = await cli(['export', '--storage', database().url]);
    // A store one migration behind: a command that migrated would record (and re-run) it.
    const client = new Client({ connectionString: database().url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: number; hash: string; created_at: string }>('SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1');
      expect(rows).toHaveLength(1);
      await client.query('DELETE FROM drizzle.__drizzle_migrations WHERE id = $1', [rows[0].id]);
      try {
        for (const args of [
          ['get', 'default/web', '-o', 'json'],
          ['history', 'default/web'],
          ['who-had', '203.0.113.7'],
        ]) {
          expect({ args, code: (await cli([...args, '--storage', database().url])).code }).toEqual({ args, code: 0 });
        }
        expect((await client.query('SELECT 1 FROM drizzle.__drizzle_migrations WHERE hash = $1', [rows[0].hash])).rowCount).toBe(0);
      } finally {
        await client.query('INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES ($1, $2, $3)', [rows[0].id, rows[0].hash, rows[0].created_at]);
      }
    } finally {
      await client.end();
    }
    expect((await cli(['export', '--storage', database().url])).stdout).toBe(before.stdout);
  }, 180000);
});
