// `svctrail replay`: rebuilds every projection from the log and swaps the fresh tables in, next to
// a running server without stalling its writes (each waits for replay's write lock, up to its 5 s
// busy timeout, so replay holds that lock only in short transactions):
//
// 1. Build: the events up to the head H (one read snapshot of the live file) are folded by
//    rebuildProjections into a scratch database in the data directory, created with the same
//    migrations. The live file is only read.
// 2. Shadow tables: the projection tables and the R-tree their triggers keep are created in the
//    live file under shadow names (projection-schema.ts), bare, and filled from the scratch in
//    batches of rows, one short transaction each; then each of their indexes is built once, in
//    its own transaction, and their triggers created (a bulk load: no index or trigger is kept up
//    to date row by row).
// 3. Catch up in rounds: writes the server committed meanwhile are copied into the scratch log and
//    folded there with the same projection code; the shadow rows of the streams they touched are
//    copied again. Rounds repeat until few writes are left.
// 4. Swap, in ONE `BEGIN IMMEDIATE` transaction: the last writes are caught up the same way, the
//    live tables are renamed away and the shadow tables renamed to the live names, and their
//    indexes likewise (in the schema: no index is built twice). Readers see the old tables or the
//    new ones, never a mix; the server's next statements read the new ones, INDEXED BY included.
// 5. After the swap, the retired tables are dropped, each in its own transaction, and the triggers
//    get back the names the migrations gave them.
// A failure before the swap removes the shadow tables and leaves the live projections as they
// were; an interrupted run leaves prefixed tables that the next replay removes first.
import Database from 'better-sqlite3';
import type { DatabaseHandle } from '../store/database';
import { openDatabase } from '../store/database';
import { REPLAY_LOCK_FILE, tryLockDataDirectory, withDataDirectoryLock } from '../store/data-directory-lock';
import { allowConcurrentReaders, createScratchDatabase, removeDatabaseFiles } from './database-files';
import { existingDataDirectory } from './data-directory';
import { foldProjections } from './folded-projections';
import { foldToHorizon, sqliteHorizon } from './store-horizon';
import { MaintenanceError } from './maintenance-error';
import { catchUpWithLive, liveHead, LIVE_SCHEMA } from './live-catch-up';
import { LockClock, type LockReport } from './lock-clock';
import type { StreamStates } from './catch-up-fold';
import { logHead } from './log-point';
import { DifferenceTally } from './difference-tally';
import { projectionSchema, retiredName, shadowName } from './projection-schema';
import { projectionTables } from './projection-tables';
import type { Progress } from './progress';
import { scratchPath } from './scratch-path';
import { createShadowTables, dropTables, fillShadowTables, indexShadowTables, restoreNames, resyncStreams, resyncStreamsInBatches, swapShadowTables } from './shadow-tables';
import { tableShape } from './table-shape';
import { WalCheckpoints } from './wal-checkpoints';

/** The swap starts once a catch-up round leaves at most this many events to fold under the lock... */
const FINAL_GAP_EVENTS = 50;
/** ...or after this many rounds (a server writing faster than replay folds never stops it). */
const MAX_ROUNDS = 10;
/** Page cache of the live file's connections while replay fills and indexes the shadow tables (KiB). */
const FILL_CACHE_KIB = 65_536;

export interface ReplayOptions {
  dataDir: string;
  progress: Progress;
  /**
   * No server can write meanwhile (the caller holds the directory's server lock): replay's
   * transactions need not leave the write lock free between them.
   */
  alone?: boolean;
}

export interface ReplayedTable {
  table: string;
  rows: number;
  /** Rows (by primary key) the swap added, removed or changed; 0 when the projection was right,
   *  null when writes arrived during the replay (the difference then includes them). */
  changed: number | null;
}

export interface ReplayReport {
  database: string;
  /** The fresh tables were built up to here... */
  builtAt: number;
  /** ...and hold the log up to here after the swap (later writes caught up in rounds and the swap). */
  resourceVersion: number;
  events: number;
  writes: number;
  /** Writes the server committed during the replay, folded in the catch-up rounds and the swap. */
  caughtUpWrites: number;
  /** Of those, the writes folded inside the swap transaction. */
  swapWrites: number;
  rounds: number;
  /** How long the swap transaction held the live file's write lock, in milliseconds... */
  swapMs: number;
  /** ...and when it released it. */
  swappedAt: string;
  /** Every write transaction replay ran on the live file (the swap among them). */
  lock: LockReport;
  /** No server could write meanwhile: the transactions ran back to back. */
  alone: boolean;
  tables: ReplayedTable[];
}

/**
 * replayProjections as the CLI runs it: under the directory's replay lock (one at a time), and
 * with no server running under the server's lock too (a server started meanwhile refuses, as
 * during an import), so no write can come and replay need not pause for any.
 */
export function replayDataDirectory(options: Omit<ReplayOptions, 'alone'>): Promise<ReplayReport> {
  return withDataDirectoryLock(
    options.dataDir,
    () => {
      const server = tryLockDataDirectory(options.dataDir);
      try {
        return replayProjections({ ...options, alone: server !== undefined });
      } finally {
        server?.release();
      }
    },
    REPLAY_LOCK_FILE,
  );
}

export function replayProjections(options: ReplayOptions): ReplayReport {
  const { progress } = options;
  const dir = existingDataDirectory(options.dataDir);
  const path = scratchPath(dir.dataDir, 'replay');
  const clock = new LockClock(!options.alone);
  let scratch: DatabaseHandle | undefined;
  let live: DatabaseHandle | undefined;
  let reader: Database.Database | undefined;
  try {
    // No WAL truncation: with a server writing, that checkpoint would stall its writes for as long as it copies.
    live = openDatabase({ path: dir.databasePath, migrationsFolder: dir.migrationsFolder, synchronous: 'FULL', truncateWal: false });
    scratch = createScratchDatabase(path, dir.migrationsFolder);
    const liveSqlite = live.sqlite;
    const sqlite = scratch.sqlite;

    // The fold reads the live log in one read snapshot on the live connection (no copy of it):
    // the scratch log holds only the writes caught up later, which is all the catch-up reads.
    const { builtAt, horizon, events, writes } = liveSqlite.transaction(() => {
      const head = logHead(liveSqlite);
      const folded = foldProjections(scratch!, progress, { sqlite: liveSqlite, untilResourceVersion: head });
      const atHorizon = sqliteHorizon(liveSqlite);
      foldToHorizon(scratch!, atHorizon);
      return { builtAt: head, horizon: atHorizon, ...folded };
    })();
    const schema = projectionSchema(sqlite, projectionTables(scratch));
    const owners = schema.owners.map((t) => tableShape(sqlite, 'main', t));
    const companions = schema.companions.map((t) => tableShape(sqlite, 'main', t));
    // Walks the scratch companions (the R-tree) while the scratch connection writes their rows.
    allowConcurrentReaders(scratch, path);
    reader = new Database(path, { readonly: true });

    // The scratch connection moves rows between the two files; the live file is attached to it.
    sqlite.prepare(`ATTACH DATABASE ? AS ${LIVE_SCHEMA}`).run(dir.databasePath);
    // Until the swap, replay writes only its shadow tables (and after it, only retired tables and
    // index names), which are not live data: their commits need not reach the disk one by one.
    // NORMAL keeps the WAL consistent (the checkpoints still sync), and the swap, at FULL, makes
    // every frame before it durable with its own. The server's connection keeps its own FULL.
    const synchronous = (level: 'NORMAL' | 'FULL') => {
      sqlite.pragma(`${LIVE_SCHEMA}.synchronous = ${level}`);
      liveSqlite.pragma(`synchronous = ${level}`);
    };
    synchronous('NORMAL');
    // The shadow tables' primary-key indexes (service_revisions' is by uid, so every batch lands
    // all over it) and the index builds want more than SQLite's default 2 MB of page cache: each
    // connection gets it for its phase only, and gives it back after (an index build also sorts
    // in up to a cache's worth of memory, so both caches full at once was replay's RSS peak).
    const defaultCache = liveSqlite.pragma('cache_size', { simple: true }) as number;
    const cache = (connection: Database.Database, schemaName: string, kib: number | undefined) => {
      connection.pragma(`${schemaName}.cache_size = ${kib === undefined ? defaultCache : -kib}`);
      if (kib === undefined) connection.pragma('shrink_memory');
    };
    // The fold's own enlarged cache, released.
    sqlite.pragma('shrink_memory');
    // Replay may wait for the server as long as it takes; it is the server's writes that must not wait.
    sqlite.pragma('busy_timeout = 60000');
    liveSqlite.pragma('busy_timeout = 60000');
    // Checkpoints run between transactions, PASSIVE (they never block the server's writes), instead
    // of inside the COMMIT that crosses the threshold, which would lengthen replay's transactions;
    // within a phase only once the WAL holds a WAL's worth of pages (wal-checkpoints.ts).
    sqlite.pragma('wal_autocheckpoint = 0');
    liveSqlite.pragma('wal_autocheckpoint = 0');
    const checkpoints = WalCheckpoints.of(liveSqlite);
    const checkpoint = () => checkpoints.maybe();
    // Renames rewrite the references in indexes, triggers and the R-tree (SQLite >= 3.26 semantics).
    sqlite.pragma('legacy_alter_table = OFF');
    try {
      createShadowTables(liveSqlite, schema, clock);
      let at = builtAt;
      let caughtUpWrites = 0;
      let rounds = 0;
      let swapped: { head: number; writes: number } | undefined;
      const states: StreamStates = new Map();
      // The old live rows against the fresh ones, tallied batch by batch as they are copied.
      const tally = new DifferenceTally(sqlite, LIVE_SCHEMA, 'main');
      let changed: Map<string, number> | undefined;
      try {
        cache(sqlite, LIVE_SCHEMA, FILL_CACHE_KIB);
        fillShadowTables(sqlite, reader, owners, companions, clock, progress, (copied) => {
          if (copied) tally.add(copied.shape, copied.after, copied.end);
          checkpoint();
        });
        cache(sqlite, LIVE_SCHEMA, undefined);
        checkpoints.now();
        cache(liveSqlite, 'main', FILL_CACHE_KIB);
        indexShadowTables(liveSqlite, schema, clock, progress, checkpoint);
        cache(liveSqlite, 'main', undefined);
        checkpoints.now();
        const catchUp = () => {
          for (let round = 0; round < MAX_ROUNDS && liveHead(scratch!) - at > FINAL_GAP_EVENTS; round++) {
            const step = catchUpWithLive(scratch!, at, states);
            resyncStreamsInBatches(sqlite, owners, step.streams, at, clock);
            at = step.head;
            caughtUpWrites += step.writes;
            rounds++;
          }
        };
        catchUp();
        // Meaningful if the live tables did not change since the build (no write at all).
        changed = sqlite.transaction(() => {
          if (liveHead(scratch!) !== builtAt) return undefined;
          return new Map(owners.map((s) => [s.table, tally.differingKeys(s)]));
        })();
        catchUp();

        progress.start('swap', schema.owners.length, 'tables');
        synchronous('FULL');
        swapped = clock.hold(sqlite, 'swap', () => {
          // A compaction meanwhile removed objects the shadow tables still hold: nothing is swapped.
          if (sqliteHorizon(liveSqlite) !== horizon) throw new MaintenanceError('the history was compacted during the replay; run replay again');
          const step = catchUpWithLive(scratch!, at, states);
          resyncStreams(sqlite, owners, step.streams, at);
          swapShadowTables(sqlite, schema);
          for (const { table } of owners) {
            const rows = sqlite.prepare(`SELECT count(*) FROM ${LIVE_SCHEMA}."${table}"`).pluck().get();
            const expected = sqlite.prepare(`SELECT count(*) FROM main."${table}"`).pluck().get();
            if (rows !== expected) throw new Error(`swap of ${table} holds ${String(rows)} rows instead of ${String(expected)}`);
          }
          return step;
        });
        progress.advance(owners.length);
        progress.done();
      } catch (error) {
        try {
          if (!swapped) dropTables(liveSqlite, schema, shadowName, clock, checkpoint);
        } catch {
          // The first failure is the one to report; the next replay removes what is left.
        }
        throw error;
      }
      synchronous('NORMAL');
      const swapMs = clock.lastMs;
      const swappedAt = new Date().toISOString();
      const swapWrites = swapped.writes;
      caughtUpWrites += swapWrites;
      const valid = swapped.head === builtAt ? changed : undefined;

      progress.start('retire the old tables', schema.tables.length, 'tables');
      dropTables(liveSqlite, schema, retiredName, clock, checkpoint);
      restoreNames(liveSqlite, schema, clock);
      checkpoints.now();
      progress.advance(schema.tables.length);
      progress.done();

      const tables = owners.map(({ table }) => ({
        table,
        rows: liveSqlite.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number,
        changed: valid?.get(table) ?? null,
      }));
      return {
        database: dir.databasePath,
        builtAt,
        resourceVersion: swapped.head,
        events,
        writes,
        caughtUpWrites,
        swapWrites,
        rounds,
        swapMs: Math.round(swapMs * 10) / 10,
        swappedAt,
        lock: clock.report(),
        alone: options.alone ?? false,
        tables,
      };
    } finally {
      sqlite.exec(`DETACH DATABASE ${LIVE_SCHEMA}`);
    }
  } finally {
    reader?.close();
    scratch?.close();
    live?.close();
    removeDatabaseFiles(path);
  }
}
