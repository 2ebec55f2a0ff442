// PostgreSQL for integration tests: a fresh database per suite on the server named by
// SVCTRAIL_TEST_POSTGRES (`.ci/start-postgres` starts the machine's cluster and prints it; CI
// exports it), dropped after the suite. The same local URL is tried when it is unset.
//
// When the server cannot be reached, a suite fails under CI (CI is set) and is skipped otherwise,
// with the reason printed: locally PostgreSQL is optional, in CI its tests must run.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

const DEFAULT_URL = 'postgres://svctrail_test:svctrail_test@127.0.0.1:5432/postgres';

export const POSTGRES_SERVER_URL = process.env.SVCTRAIL_TEST_POSTGRES || DEFAULT_URL;

/** Why PostgreSQL cannot be used, or undefined when it can: decided once, synchronously, at load. */
function unreachableBecause(url: string): string | undefined {
  // A child process, so that `describe` can be chosen before jest collects the tests.
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const { Client } = require('pg');
       const c = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 10000 });
       c.connect().then(() => c.query('SELECT 1')).then(() => c.end()).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); });`,
      url,
    ],
    { encoding: 'utf8', timeout: 30_000, cwd: __dirname },
  );
  if (probe.status === 0) return undefined;
  return (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
}

const unreachable = unreachableBecause(POSTGRES_SERVER_URL);

/** A database of its own for one suite. */
export interface PostgresTestDatabase {
  /** Connection URL of the suite's database. */
  readonly url: string;
  readonly name: string;
}

/**
 * `describe` for a suite that needs PostgreSQL: `database()` gives its fresh database (created in
 * beforeAll, dropped in afterAll, after the suite's own afterAll hooks closed their pools).
 */
export function describePostgres(title: string, body: (database: () => PostgresTestDatabase) => void): void {
  if (unreachable !== undefined) {
    const reason = `PostgreSQL at ${redacted(POSTGRES_SERVER_URL)} is unreachable (${unreachable}); start it with .ci/start-postgres`;
    describeWithoutPostgres(title, reason, () => body(() => unavailable(reason)));
    return;
  }
  describe(title, () => {
    let current: PostgresTestDatabase | undefined;
    beforeAll(async () => {
      current = await createTestDatabase();
    });
    body(() => current ?? unavailable('the database is created in beforeAll'));
    // After the body's hooks (jest runs hooks in the order they are declared): its afterAll closes
    // its pools and servers first.
    afterAll(async () => {
      if (current) await dropTestDatabase(current.name);
    });
  });
}

/**
 * A suite whose PostgreSQL is missing: under CI (CI is set) it fails with the reason; elsewhere it
 * is skipped, with the reason printed (`body` only declares its tests, none runs).
 */
export function describeWithoutPostgres(title: string, reason: string, body: () => void): void {
  if (process.env.CI) {
    describe(title, () => {
      it('needs PostgreSQL', () => {
        throw new Error(reason);
      });
    });
  } else {
    console.warn(`skipping "${title}": ${reason}`);
    describe.skip(title, body);
  }
}

function unavailable(reason: string): never {
  throw new Error(reason);
}

export async function createTestDatabase(): Promise<PostgresTestDatabase> {
  const name = `svctrail_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await asAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}

export async function dropTestDatabase(name: string): Promise<void> {
  // WITH (FORCE) (PostgreSQL 13+): a pool a failed test left open does not keep it alive. It
  // refuses (42501) while an autovacuum worker, a superuser's backend the test role may not
  // terminate, is in the database; such a worker is gone within moments: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await asAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '42501' || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function asAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: POSTGRES_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
