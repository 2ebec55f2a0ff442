// What replay does to the live file around the swap, each step in short write transactions so a
// running server's writes never wait long: create the shadow tables, bare, fill them from the
// scratch projections in batches (a bulk load: no secondary index, trigger or R-tree to keep up
// to date row by row), then build their indexes once each and create their triggers, bring the
// rows of streams written meanwhile up to date, swap (the indexes take the migrations' names in the
// swap itself, renamed in the schema, not rebuilt), and after it drop the retired tables (a table
// with its indexes per transaction), then give the triggers back the names the migrations gave them.
import type Database from 'better-sqlite3';
import { BatchSize } from './batch-size';
import type { LockClock } from './lock-clock';
import { LIVE_SCHEMA, type WrittenStream } from './live-catch-up';
import type { Progress } from './progress';
import { MaintenanceError } from './maintenance-error';
import { renameIndexes } from './index-renames';
import { dependentsOutside, indexSqlNamed, type ProjectionSchema, retiredName, shadowName, shadowSchema } from './projection-schema';
import { columnList, type TableShape } from './table-shape';

/** Streams per write transaction when rows of written streams are brought up to date. */
const BATCH_STREAMS = 100;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function exists(sqlite: Database.Database, type: 'table' | 'index' | 'trigger', name: string): boolean {
  return sqlite.prepare('SELECT count(*) FROM main.sqlite_master WHERE type = ? AND name = ?').pluck().get(type, name) === 1;
}

/**
 * Removes what an interrupted replay left (shadow or retired tables, prefixed names), then creates
 * the shadow tables, empty and bare: indexShadowTables gives them their indexes and triggers.
 */
export function createShadowTables(live: Database.Database, schema: ProjectionSchema, clock: LockClock): void {
  const dependents = dependentsOutside(live, schema);
  if (dependents.length) {
    throw new MaintenanceError(
      `replay renames the projection tables, which ${dependents.join(', ')} would follow to the old ones: drop ${dependents.length === 1 ? 'it' : 'them'}, replay, then create ${dependents.length === 1 ? 'it' : 'them'} again`,
    );
  }
  for (const name of [retiredName, shadowName]) dropTables(live, schema, name, clock);
  restoreNames(live, schema, clock);
  const { tables } = shadowSchema(schema);
  clock.hold(live, 'create the shadow tables', () => {
    for (const sql of tables) live.exec(sql);
  });
}

/**
 * Copies every scratch projection row into the bare shadow tables, owners and companions (the
 * R-tree, which the scratch's rebuild filled), in batches. `afterBatch` runs between batches,
 * outside the lock, with the rowid range of the owner rows copied: the replayer counts their
 * differences from the live rows there (difference-tally.ts) and checkpoints the live file. Companions are read through `reader`, a second connection on the scratch file (an
 * R-tree cannot seek a range of rowids; one cursor walks it instead).
 */
export function fillShadowTables(
  scratch: Database.Database,
  reader: Database.Database,
  owners: readonly TableShape[],
  companions: readonly TableShape[],
  clock: LockClock,
  progress: Progress,
  afterBatch: (copied?: { shape: TableShape; after: number; end: number }) => void = () => {},
): void {
  const count = (t: string) =>
    scratch
      .prepare(`SELECT count(*) FROM main.${quote(t)}`)
      .pluck()
      .get() as number;
  progress.start(
    'copy into the live file',
    [...owners, ...companions].reduce((n, s) => n + count(s.table), 0),
    'rows',
  );
  for (const shape of owners) {
    const cols = columnList(shape);
    const upTo = scratch.prepare(`SELECT max(rowid) FROM (SELECT rowid FROM main.${quote(shape.table)} WHERE rowid > ? ORDER BY rowid LIMIT ?)`).pluck();
    const insert = scratch.prepare(
      `INSERT INTO ${LIVE_SCHEMA}.${quote(shadowName(shape.table))} (${cols}) SELECT ${cols} FROM main.${quote(shape.table)} WHERE rowid > ? AND rowid <= ? ORDER BY rowid`,
    );
    // Batch bounds are read from the scratch alone, outside the lock.
    const batch = new BatchSize();
    for (let after = Number.MIN_SAFE_INTEGER; ;) {
      const end = upTo.get(after, batch.rows) as number | null;
      if (end === null) break;
      progress.advance(clock.hold(scratch, `copy ${shape.table} rows`, () => insert.run(after, end).changes));
      batch.adjust(clock.lastMs);
      afterBatch({ shape, after, end });
      after = end;
    }
  }
  for (const shape of companions) {
    const cols = columnList(shape);
    const insert = scratch.prepare(`INSERT INTO ${LIVE_SCHEMA}.${quote(shadowName(shape.table))} (${cols}) VALUES (${shape.columns.map(() => '?').join(', ')})`);
    const rows = reader
      .prepare(`SELECT ${cols} FROM main.${quote(shape.table)}`)
      .raw()
      .iterate() as IterableIterator<unknown[]>;
    const batch = new BatchSize();
    try {
      for (let done = false; !done;) {
        progress.advance(
          clock.hold(scratch, `copy ${shape.table} rows`, () => {
            let n = 0;
            for (; n < batch.rows; n++) {
              const next = rows.next();
              if (next.done) {
                done = true;
                break;
              }
              insert.run(next.value);
            }
            return n;
          }),
        );
        batch.adjust(clock.lastMs);
        afterBatch();
      }
    } finally {
      rows.return?.(); // a failed batch leaves the cursor open, which would keep the reader from closing
    }
  }
  progress.done();
}

/**
 * Builds the shadow tables' indexes, each once from the filled table in its own transaction, then
 * creates their triggers (from here on the catch-up keeps companions up to date through them).
 */
export function indexShadowTables(live: Database.Database, schema: ProjectionSchema, clock: LockClock, progress: Progress, afterEach: () => void = () => {}): void {
  const { indexes, triggers } = shadowSchema(schema);
  progress.start('index the new tables', indexes.length + 1, 'steps');
  for (const [i, sql] of indexes.entries()) {
    clock.hold(live, `build index ${shadowName(schema.indexes[i].name)}`, () => live.exec(sql));
    progress.advance(1);
    afterEach();
  }
  clock.hold(live, 'create the shadow triggers', () => {
    for (const sql of triggers) live.exec(sql);
  });
  progress.advance(1);
  progress.done();
}

/**
 * Makes the shadow rows of `streams` equal to the scratch ones, after the scratch folded the writes
 * after resourceVersion `after`. Every projection row belongs to the stream whose writes produce
 * it, so only the rows of these streams can differ; of those, only the rows that differ are
 * deleted and inserted (a busy stream has thousands of revisions and one new). A stream's rows are
 * found by the table's own key where it can: a table keyed by (namespace, name) by the streams'
 * names; one keyed by resource_version alone holds one row per write, never changed after it (the
 * Events' occurrences), so only its rows after `after` are compared; any other by uid (each has
 * an index that starts with it). Runs in the caller's transaction.
 */
export function resyncStreams(scratch: Database.Database, owners: readonly TableShape[], streams: readonly WrittenStream[], after: number): void {
  if (!streams.length) return;
  const uids = JSON.stringify(streams.map((s) => s.uid));
  const names = JSON.stringify(streams.map((s) => [s.namespace, s.name]));
  for (const shape of owners) {
    if (!shape.columns.includes('uid')) throw new Error(`projection table ${shape.table} has no uid column; replay re-copies rows by stream`);
    const shadow = `${LIVE_SCHEMA}.${quote(shadowName(shape.table))}`;
    const fresh = `main.${quote(shape.table)}`;
    const cols = columnList(shape);
    const same = shape.columns.map((c) => `a.${quote(c)} IS b.${quote(c)}`).join(' AND ');
    const [inStreams, params] = streamRows(shape, uids, names, after);
    scratch.prepare(`DELETE FROM ${shadow} WHERE rowid IN (SELECT a.rowid FROM ${shadow} a WHERE ${inStreams} AND NOT EXISTS (SELECT 1 FROM ${fresh} b WHERE ${same}))`).run(params);
    scratch.prepare(`INSERT INTO ${shadow} (${cols}) SELECT ${cols} FROM ${fresh} a WHERE ${inStreams} AND NOT EXISTS (SELECT 1 FROM ${shadow} b WHERE ${same})`).run(params);
  }
}

/** The condition on a row `a` of the table that holds for the rows of the streams, and its parameters. */
function streamRows(shape: TableShape, uids: string, names: string, after: number): [string, Record<string, unknown>] {
  const key = shape.key.join(',');
  if (key === 'namespace,name') return ['(a.namespace, a.name) IN (SELECT value ->> 0, value ->> 1 FROM json_each(@names))', { names }];
  const byUid = 'a.uid IN (SELECT value FROM json_each(@uids))';
  if (key === 'resource_version') return [`a.resource_version > @after AND ${byUid}`, { uids, after }];
  return [byUid, { uids }];
}

/** resyncStreams in batches of streams, each its own short transaction. */
export function resyncStreamsInBatches(scratch: Database.Database, owners: readonly TableShape[], streams: readonly WrittenStream[], after: number, clock: LockClock): void {
  for (let i = 0; i < streams.length; i += BATCH_STREAMS) {
    clock.hold(scratch, 'catch up: re-copy the rows of written Services and Events', () => resyncStreams(scratch, owners, streams.slice(i, i + BATCH_STREAMS), after));
  }
}

/**
 * The swap itself, in the caller's transaction: the AUTOINCREMENT counters are taken from the
 * scratch, the live tables renamed to their retired names and the shadow tables to the live ones,
 * and their indexes likewise (renameIndexes). Renames only touch the schema (no row is copied, no
 * index rebuilt), and with legacy_alter_table off SQLite rewrites every index, trigger and R-tree
 * reference to follow the tables.
 */
export function swapShadowTables(scratch: Database.Database, schema: ProjectionSchema): void {
  // sqlite_sequence exists only in a file that has (or had) an AUTOINCREMENT table; since
  // migration 0005 no projection table is one, and a vacuumed file may have none at all.
  const sequences = (schemaName: string) => scratch.prepare(`SELECT 1 FROM ${schemaName}.sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`).get() !== undefined;
  if (sequences(LIVE_SCHEMA) && sequences('main')) {
    for (const table of schema.owners) {
      const shadow = shadowName(table);
      scratch.prepare(`DELETE FROM ${LIVE_SCHEMA}.sqlite_sequence WHERE name = ?`).run(shadow);
      scratch.prepare(`INSERT INTO ${LIVE_SCHEMA}.sqlite_sequence (name, seq) SELECT ?, seq FROM main.sqlite_sequence WHERE name = ?`).run(shadow, table);
    }
  }
  const tables = schema.tables.map((t) => t.name);
  for (const table of tables) scratch.exec(`ALTER TABLE ${LIVE_SCHEMA}.${quote(table)} RENAME TO ${quote(retiredName(table))}`);
  for (const table of tables) scratch.exec(`ALTER TABLE ${LIVE_SCHEMA}.${quote(shadowName(table))} RENAME TO ${quote(table)}`);
  // A rename keeps index names: the retired tables' indexes give theirs up, and the new tables'
  // take them, in this transaction, so a server's INDEXED BY finds its index at every moment.
  const retired = scratch
    .prepare(`SELECT name, sql FROM ${LIVE_SCHEMA}.sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(tables.map(retiredName))) as { name: string; sql: string }[];
  renameIndexes(scratch, LIVE_SCHEMA, [
    ...retired.map(({ name, sql }) => ({ from: name, to: retiredName(name), sql: indexSqlNamed(sql, name, retiredName(name)) })),
    ...schema.indexes.map((index) => ({ from: shadowName(index.name), to: index.name, sql: index.sql })),
  ]);
}

/**
 * Drops the tables named `nameOf(table)`, where they exist: their triggers first (no trigger
 * outlives its table), then each index and each table in its own transaction, so no one hold
 * frees more than one b-tree. A DROP walks the b-tree's pages onto the free list and writes a
 * page of the list per thousand pages freed: emptying a table row by row instead rewrote every
 * page through the WAL (75 s for the tables of a 1M-event log). (Reading each b-tree first to warm the cache did not shorten the holds measured
 * and cost replay 20 MB of RSS.)
 */
export function dropTables(live: Database.Database, schema: ProjectionSchema, nameOf: (table: string) => string, clock: LockClock, afterEach: () => void = () => {}): void {
  const tables = schema.tables.map(({ name }) => nameOf(name)).filter((table) => exists(live, 'table', table));
  const derived = (type: 'trigger' | 'index', tables: string[]) =>
    live.prepare(`SELECT name FROM main.sqlite_master WHERE type = ? AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))`).pluck().all(type, JSON.stringify(tables)) as string[];
  const triggers = derived('trigger', tables);
  if (triggers.length) clock.hold(live, 'drop the triggers of the tables to drop', () => triggers.forEach((t) => live.exec(`DROP TRIGGER ${quote(t)}`)));
  const companions = new Set(schema.companions.map(nameOf));
  for (const table of tables) {
    // A companion (the R-tree, a virtual table) is dropped as it is.
    if (!companions.has(table)) {
      for (const index of derived('index', [table])) {
        readWhole(live, index);
        clock.hold(live, `drop index ${index}`, () => live.exec(`DROP INDEX ${quote(index)}`));
      }
      readWhole(live, table);
    }
    clock.hold(live, `drop ${table}`, () => live.exec(`DROP TABLE ${quote(table)}`));
    afterEach();
  }
}

/**
 * Reads every page of a table's or an index's b-tree once (dbstat visits each, overflow pages
 * included), outside the write lock: a read never blocks the server's writes. DROP visits every
 * page of what it frees, and with the pages not in the OS cache the drop of a retired 1.6 GB
 * revisions table held the lock 12.4 s, past the server's 5 s busy timeout.
 */
function readWhole(live: Database.Database, name: string): void {
  live.prepare('SELECT pageno FROM dbstat(?, 1) WHERE name = ?').pluck().get('main', name);
}

/**
 * Gives indexes and triggers of the live tables the names the migrations gave them, where a replay
 * interrupted after its swap left them prefixed (later migrations refer to them by name). A
 * trigger is recreated as written; an index is renamed in the schema (renameIndexes), not rebuilt.
 * Since the swap renames indexes itself, only triggers are left prefixed by a replay that ran
 * through (and indexes by one from before that change).
 */
export function restoreNames(live: Database.Database, schema: ProjectionSchema, clock: LockClock): void {
  const prefixed = (type: 'index' | 'trigger', name: string) =>
    live.prepare(`SELECT count(*) FROM main.sqlite_master WHERE type = ? AND name = ? AND tbl_name NOT LIKE 'replay\\_%' ESCAPE '\\'`).pluck().get(type, shadowName(name)) === 1;
  const triggers = schema.triggers.filter((t) => prefixed('trigger', t.name));
  if (triggers.length) {
    clock.hold(live, 'rename the triggers back', () => {
      for (const t of triggers) {
        live.exec(`DROP TRIGGER ${quote(shadowName(t.name))}`);
        if (!exists(live, 'trigger', t.name)) live.exec(t.sql);
      }
    });
  }
  const indexes = schema.indexes.filter((i) => prefixed('index', i.name));
  if (indexes.length) {
    clock.hold(live, 'rename the indexes back', () => {
      // An index already under its own name (on the same live table) makes the prefixed one a spare.
      const spare = indexes.filter((i) => exists(live, 'index', i.name));
      for (const index of spare) live.exec(`DROP INDEX ${quote(shadowName(index.name))}`);
      renameIndexes(
        live,
        'main',
        indexes.filter((i) => !spare.includes(i)).map((i) => ({ from: shadowName(i.name), to: i.name, sql: i.sql })),
      );
    });
  }
}
