// `svctrail replay --storage postgres://…`: rebuilds every projection table from the log into
// shadow tables and swaps them in, while replicas may keep writing.
//
// 1. The log up to its head H is folded (ProjectionRowFold, the live projections' rules) in one
//    snapshot into shadow tables `<table>__replay` without indexes; the present rows (live
//    objects, allocations, open intervals, live lifetimes) included. Then the live tables'
//    indexes and constraints are created on them under temporary names.
// 2. Writes committed meanwhile are folded in rounds, without any lock: each round reads the log
//    after the last folded resourceVersion (positions become visible in order, see
//    lockAppends), adds their history rows and replaces the present rows of the Services and
//    Events they touched.
// 3. The last round runs under the append lock every write takes, so no write can commit between
//    it and the swap, which renames the shadow tables (and their indexes and constraints) to the
//    live names in the same transaction. Writes wait for the lock, none is lost; readers see the
//    old tables or the new ones. A failure before COMMIT leaves the live tables as they were.
//
// One replay at a time per database (a session advisory lock).
import { DatabaseError } from 'pg';
import { redactedUrl } from '../../store/postgres/postgres-database';
import { lockAppends } from '../../store/postgres/pg-event-store';
import { checkout, type Queryable } from '../../store/postgres/postgres-database';
import { MaintenanceError } from '../maintenance-error';
import { openPgStore } from './pg-store-connection';
import { pgFoldToHorizon, pgHorizon } from './pg-store-horizon';
import type { Progress } from '../progress';
import { packRemainingEventData } from '../event-data-conversion';
import { PgSqlWriter } from '../../store/postgres/pg-sql-writer';
import { PROJECTION_TABLES, ProjectionRowFold, type ProjectionTable } from '../projection-row-fold';
import type { ReplayReport } from '../projection-replayer';
import { logHeadOf } from '../log-pages';
import { PgSqlReader } from '../../store/postgres/pg-sql-reader';
import { comparePgProjections } from './pg-projection-comparison';
import { foldOptions, PgFoldWriter } from './pg-projection-fold';

export interface PgReplayOptions {
  url: string;
  progress: Progress;
  /** How long the swap may wait for a lock (default 10 s). */
  swapLockTimeoutMs?: number;
  /** Called after each step (tests hold a replay there to write meanwhile). */
  step?: (name: 'built' | 'caught-up' | 'locked') => Promise<void>;
}

/** Key of the session advisory lock one replay holds (a constant of svctrail's own). */
const REPLAY_LOCK = '8319395769342917035';
const MAX_ROUNDS = 5;
/** How long the swap may wait for a lock (the append lock, a table a reader holds). */
const SWAP_LOCK_TIMEOUT_MS = 10_000;
/** SQLSTATE lock_not_available (lock_timeout expired). */
const LOCK_NOT_AVAILABLE = '55P03';

const shadow = (table: ProjectionTable) => `${table}__replay`;
const temporaryName = (name: string) => `${name}__r`;

/** Where each table's present rows are, by uid: what a catch-up round replaces. */
const PRESENT_ROWS: Partial<Record<ProjectionTable, string>> = {
  services: 'uid = ANY($1)',
  allocations: 'uid = ANY($1)',
  service_lifetimes: 'uid = ANY($1) AND deleted_resource_version IS NULL',
  ingress_intervals: 'uid = ANY($1) AND to_resource_version IS NULL',
  kube_events: 'uid = ANY($1)',
};

interface IndexDefinition {
  name: string;
  /** A constraint (primary key, unique) rather than an index of its own. */
  constraint?: string;
  definition: string;
}

export async function replayPgProjections(options: PgReplayOptions): Promise<ReplayReport> {
  const { progress } = options;
  const lockTimeout = options.swapLockTimeoutMs ?? SWAP_LOCK_TIMEOUT_MS;
  const handle = await openPgStore(options.url, { existing: true, max: 2 });
  const client = await checkout(handle.pool);
  let broken: Error | undefined;
  const started = Date.now();
  try {
    const { rows: locked } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [REPLAY_LOCK]);
    if (!locked[0].ok) throw new MaintenanceError(`another replay is running on ${redactedUrl(options.url)}`);
    try {
      // A store written before packed event data is converted first (on the pool's other connection).
      await packRemainingEventData(new PgSqlWriter(handle.pool), progress);
      const foldWith = await foldOptions(client);
      const writer = new PgFoldWriter(client, new ProjectionRowFold(foldWith), foldWith, shadow);
      const fold = writer.fold;
      for (const table of PROJECTION_TABLES) {
        await client.query(`DROP TABLE IF EXISTS ${shadow(table)}`);
        await client.query(`CREATE TABLE ${shadow(table)} (LIKE ${table} INCLUDING DEFAULTS INCLUDING GENERATED)`);
      }
      let swapped = false;
      try {
        // 1. The log up to its head, in one snapshot.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        const builtAt = await logHeadOf(new PgSqlReader(() => client));
        progress.start('fold projections', builtAt, 'events');
        await writer.foldLog(client, 0, builtAt, progress);
        fold.present();
        await writer.flush(true);
        const horizon = await pgHorizon(client);
        await pgFoldToHorizon(client, horizon, shadow, false);
        await client.query('COMMIT');
        progress.done();
        const buildWrites = fold.writes;
        const indexes = new Map<ProjectionTable, IndexDefinition[]>();
        for (const table of PROJECTION_TABLES) {
          indexes.set(table, await indexDefinitions(client, table));
          for (const index of indexes.get(table)!) await client.query(shadowIndex(table, index));
        }
        // What the swap will change, while no write arrives (null otherwise, as SQLite's replay).
        const comparison = await comparePgProjections(client, PROJECTION_TABLES, foldWith, shadow, 0);
        await options.step?.('built');

        // 2. Writes committed meanwhile, in rounds without a lock.
        let rounds = 0;
        for (; rounds < MAX_ROUNDS; rounds++) {
          const head = await logHeadOf(new PgSqlReader(() => client));
          if (head <= fold.resourceVersion) break;
          await client.query('BEGIN');
          await catchUp(client, writer, head, progress);
          await client.query('COMMIT');
        }
        await options.step?.('caught-up');

        // 3. The last writes and the swap, under the append lock. The renames wait for readers
        // of the live tables to finish, and writers wait meanwhile: bounded by lock_timeout.
        const writesBeforeSwap = fold.writes;
        await client.query(`BEGIN; SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockTimeout))}`);
        // A compaction meanwhile removed objects the shadow tables still hold: nothing is swapped.
        if ((await pgHorizon(client)) !== horizon) throw new MaintenanceError('the history was compacted during the replay; run replay again');
        const lockedAt = Date.now();
        await lockAppends(client);
        await options.step?.('locked');
        await catchUp(client, writer, await logHeadOf(new PgSqlReader(() => client)), progress);
        for (const table of PROJECTION_TABLES) await swap(client, table, indexes.get(table)!);
        await client.query('COMMIT');
        swapped = true;
        const swappedAt = new Date();
        const swapMs = swappedAt.getTime() - lockedAt;
        const caughtUpWrites = fold.writes - buildWrites;
        const tables = [];
        for (const t of comparison.tables) {
          const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t.table}`);
          tables.push({ table: t.table, rows: rows[0].n, changed: caughtUpWrites ? null : t.differences });
        }
        return {
          database: redactedUrl(options.url),
          builtAt,
          resourceVersion: fold.resourceVersion,
          events: fold.events,
          writes: fold.writes,
          caughtUpWrites,
          swapWrites: fold.writes - writesBeforeSwap,
          rounds: rounds + 1,
          swapMs,
          swappedAt: swappedAt.toISOString(),
          lock: { transactions: 1, longestMs: swapMs, longest: 'swap', totalMs: Date.now() - started, overOneSecond: swapMs >= 1000 ? [{ ms: swapMs, what: 'swap' }] : [] },
          tables,
          // Replicas may write at any time: every append waits on the lock the swap takes.
          alone: false,
        };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (error instanceof DatabaseError && error.code === LOCK_NOT_AVAILABLE) {
          throw new MaintenanceError(
            `replay could not take the append lock and the projection tables within ${lockTimeout} ms (a long transaction reads them?); the live tables are untouched, run it again`,
          );
        }
        throw error;
      } finally {
        if (!swapped) {
          for (const table of PROJECTION_TABLES) await client.query(`DROP TABLE IF EXISTS ${shadow(table)}`).catch((error: Error) => (broken = error));
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [REPLAY_LOCK]).catch((error: Error) => (broken = error));
    }
  } finally {
    client.releaseChecked(broken);
    await handle.close();
  }
}

/** Folds the writes after the fold's last up to `head` into the shadow tables (in the caller's transaction). */
async function catchUp(client: Queryable, writer: PgFoldWriter, head: number, progress: Progress): Promise<void> {
  if (head <= writer.fold.resourceVersion) return;
  progress.start('catch up', head - writer.fold.resourceVersion, 'events');
  await writer.foldLog(client, writer.fold.resourceVersion, head, progress, true);
  const touched = new Set(writer.fold.touchedStreams);
  for (const [table, where] of Object.entries(PRESENT_ROWS)) {
    await client.query(`DELETE FROM ${shadow(table as ProjectionTable)} WHERE ${where}`, [[...touched]]);
  }
  writer.fold.present(touched);
  await writer.flush(true);
  progress.done();
}

/** The live table's indexes (constraints among them) as PostgreSQL would create them again. */
async function indexDefinitions(client: Queryable, table: string): Promise<IndexDefinition[]> {
  const { rows } = await client.query<{ name: string; definition: string; constraint: string | null; constraint_definition: string | null }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition, c.conname AS constraint, pg_get_constraintdef(c.oid) AS constraint_definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
      WHERE x.indrelid = $1::regclass ORDER BY i.relname`,
    [table],
  );
  return rows.map((r) => (r.constraint ? { name: r.name, constraint: r.constraint, definition: r.constraint_definition! } : { name: r.name, definition: r.definition }));
}

function shadowIndex(table: ProjectionTable, index: IndexDefinition): string {
  if (index.constraint) return `ALTER TABLE ${shadow(table)} ADD CONSTRAINT ${temporaryName(index.constraint)} ${index.definition}`;
  const match = /^(CREATE (?:UNIQUE )?INDEX )(\S+)( ON (?:ONLY )?)(\S+)( .*)$/s.exec(index.definition);
  if (!match || match[2] !== index.name) throw new Error(`cannot read the definition of index ${index.name}: ${index.definition}`);
  const qualified = match[4].includes('.') ? `${match[4].slice(0, match[4].lastIndexOf('.') + 1)}${shadow(table)}` : shadow(table);
  return `${match[1]}${temporaryName(index.name)}${match[3]}${qualified}${match[5]}`;
}

/** Puts the shadow table in the live one's place, with the live names of its indexes and constraints. */
async function swap(client: Queryable, table: ProjectionTable, indexes: IndexDefinition[]): Promise<void> {
  await client.query(`DROP TABLE ${table}`);
  await client.query(`ALTER TABLE ${shadow(table)} RENAME TO ${table}`);
  for (const index of indexes) {
    if (index.constraint) await client.query(`ALTER TABLE ${table} RENAME CONSTRAINT ${temporaryName(index.constraint)} TO ${index.constraint}`);
    else await client.query(`ALTER INDEX ${temporaryName(index.name)} RENAME TO ${index.name}`);
  }
}
