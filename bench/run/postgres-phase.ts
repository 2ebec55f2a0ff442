// PostgreSQL: svctrail-pg (one replica) and svctrail-pg3 (three replicas on one database).
import { Client } from 'pg';
import { join } from 'node:path';
import { type DatasetManifest } from '../generate-data';
import { runs, log } from './options';
import { PG_TARGETS, type Target } from './processes';
import { readFixture } from './fixture';
import { type Result, type CaseResult, putMany, putHot, READ_CASES, TIME_TRAVEL_CASES, HISTORY_CASES } from './cases';
import { scratchCopy, cli } from './storage-and-cli';
import { fmtNum, fmtMB } from './format';
import { type PhaseDefs, runTargets } from './phase';

// PostgreSQL: svctrail-pg (one replica) and svctrail-pg3 (three replicas on one database)

/** A role that may CREATE DATABASE; the bench makes svctrail_bench_<pid>_pg and _pg3 and drops them at the end. */
const PG_ADMIN_URL = process.env.SVCTRAIL_BENCH_POSTGRES ?? 'postgres://svctrail_test:svctrail_test@127.0.0.1:5432/postgres';
/** The databases made so far (one per target: svctrail_bench_<pid>_pg, …_pg3), dropped at the end. */
const pgDatabases = new Set<string>();

// The PostgreSQL targets run on the 10k dataset, in the full run too. Measured (quick run, loaded
// 2-core machine): svctrail import into PostgreSQL ≈ 2k events/s (3–5k on a quiet one), so the 1M
// log would take 4–8 min per fresh database, twice (each target starts from its own), plus its
// export: 10–17 min before any case, where the whole PostgreSQL phase on 10k (import, startup and
// the cases at 8 s each) takes about 5–6 min. That is over the ~12 minutes a full run may grow by.
// Writes, GET, LIST and watch on PostgreSQL do not scan the log, and the SQLite figures beside
// them are of the same 10k dataset where the run has them (--quick, or the full run's 10k phase).
export const PG_DATASET = '10k';
export const PG_READS = [...READ_CASES, ...TIME_TRAVEL_CASES, ...HISTORY_CASES].filter((d) => ['get-10', 'list-10', 'tt-get-exact-10', 'history-changes-10'].includes(d.id));
// put-many-32 too: issue 45 compares the CPU per write of one and three replicas at 16, 32 and 64 connections.
export const PG_WRITES = [putMany(1), putMany(16), putMany(32), putMany(64), putHot(1), putHot(16), putHot(64)];
export const PG_CASE_IDS = [...PG_READS.map((d) => d.id), ...PG_WRITES.map((d) => d.id), 'watch-100', 'watch-cross', 'pg-import'];

const pgUrlOf = (database: string) => {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

async function pgAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database of `target`'s own (dropped first if a previous run left it). */
async function createPgDatabase(target: string): Promise<string> {
  const database = `svctrail_bench_${process.pid}_${target.replace(/^svctrail-/, '')}`;
  await pgAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    pgDatabases.add(database);
    await c.query(`CREATE DATABASE ${database}`);
  });
  return pgUrlOf(database);
}

export async function dropPgDatabase(): Promise<void> {
  for (const database of [...pgDatabases]) {
    try {
      await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      pgDatabases.delete(database);
    } catch (error) {
      log(`note: could not drop the PostgreSQL database ${database}: ${(error as Error).message}`);
    }
  }
}

/**
 * Both PostgreSQL targets on the 10k dataset: the dataset exported once through the CLI, then per
 * target imported into a fresh database (timed) and served by one or three replicas. Undefined
 * when PostgreSQL cannot be reached (a note says so; the SQLite run goes on).
 */
export async function pgPhase(set: { dir: string; manifest: DatasetManifest }, results: Map<string, CaseResult>, memoryOf: Record<string, Result>, scratch: string[]): Promise<Result | undefined> {
  try {
    await pgAdmin((c) => c.query('SELECT 1'));
  } catch (error) {
    log(
      `\nnote: PostgreSQL is not reachable at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message}): the PostgreSQL columns are skipped (.ci/start-postgres starts the local cluster; SVCTRAIL_BENCH_POSTGRES names another)`,
    );
    return { skipped: (error as Error).message };
  }
  const events = set.manifest.events;
  log(`\n[PostgreSQL, ${PG_DATASET}] ${events.toLocaleString('en-US')} events exported once, imported into a fresh database per target`);
  const dir = scratchCopy(set.dir, `${PG_DATASET}-pg-export`);
  scratch.push(dir);
  const file = join(dir, 'export.ndjson');
  const exported = await cli(['export', '--data-dir', dir, '--out', file], 'svctrail export');
  if (exported.code !== 0) throw new Error(`svctrail export for PostgreSQL failed: ${exported.stderr.slice(-2000)}`);
  const fixture = readFixture(set.dir, set.manifest);
  const out: Result = { dataset: PG_DATASET, imports: {} };
  try {
    const targets: { target: Target; defs: PhaseDefs }[] = [];
    for (const target of PG_TARGETS.filter(runs)) {
      const url = await createPgDatabase(target);
      const imported = await cli(['import', '--storage', url, file], 'svctrail import --storage');
      if (imported.code !== 0) throw new Error(`svctrail import into PostgreSQL failed: ${imported.stderr.slice(-2000)}`);
      const rate = events / (imported.ms / 1000);
      (out.imports as Result)[target] = { ms: imported.ms, eventsPerSecond: rate, peakRssBytes: imported.peakRssBytes };
      log(` ${target}: svctrail import --storage ${(imported.ms / 1000).toFixed(1)} s = ${fmtNum(rate)} events/s, peak RSS ${fmtMB(imported.peakRssBytes)}`);
      targets.push({ target, defs: { reads: PG_READS, writes: PG_WRITES, watch: 'json', settledOnly: true, pgUrl: url } });
    }
    // Both up at once, each on its database, their write cases interleaved as the SQLite targets'
    // are: a pg3 ÷ pg ratio read from two runs minutes apart on a shared machine measured the
    // machine's load as much as the replicas.
    Object.assign(memoryOf, await runTargets(targets, fixture, set.dir, PG_DATASET, results, scratch));
  } finally {
    await dropPgDatabase();
  }
  return out;
}
