// Compaction, once for both engines: below the horizon the full objects go and what the past
// means stays (docs/history.md, "Retention"). Each revision below the horizon moves from
// service_revisions to revision_facts, keeping its patch (the change log's) and its managedFields
// (field ownership over time) and leaving its object behind; the anchors stay: the revision
// current at the horizon of every Service alive then, so reads at the horizon (GET, LIST, a watch
// from it) answer as before. The events, condition transitions, ingress intervals, lifetimes and
// every record of who did what are untouched. Moving rows, rather than emptying them in place,
// frees whole pages of the revisions table (the oldest rows are its oldest pages), which SQLite's
// incremental vacuum then gives back and PostgreSQL's VACUUM makes reusable.
//
// The horizon is recorded first, in a transaction of its own: from then on every read below it
// is 410 Expired, whether or not its object was removed yet. The revisions then move in short
// transactions, each sized to hold the write lock about TARGET_HOLD_MS (beside a running server no
// write waits longer than one of them), and the record gets its counts last. An interrupted compaction is finished by the next
// one asked for the same point; one asked for an older point changes nothing.
import type { Compaction, CompactionOutcome, CompactionRequest, HistoryCompactor } from './ports/history-compaction';
import type { ServiceReads } from './ports/service-read-store';
import type { Service } from '../domain/service.types';
import type { DialectName, SqlReader } from './sql/sql-reader';
import type { SqlStatement, SqlWriter } from './sql/sql-writer';
import { BatchSizer } from './batch-sizer';
import { factsChecksum } from './facts-checksum';
import { decodeStoredText, encodeStoredText, storedTextBytes, type StoredText } from './stored-text-codec';

/** Revisions examined by the first transaction (and by every one of a fold, which no server waits on). */
const FIRST_BATCH = 1000;
/** How long a transaction of a compaction should hold the write lock: later batches are sized to it. */
const TARGET_HOLD_MS = 150;

interface CompactionRow {
  id: number;
  horizonResourceVersion: number;
  horizonTime: string;
  actorUser: string;
  startedAt: string;
  finishedAt: string | null;
  removedWrites: number;
  removedObjects: number;
  removedBytes: number;
  factsChecksum: string | null;
  factsChecksumAfter: number | null;
}

/** `checksums`: false for a store read unmigrated from before migration 0011, which has no such columns. */
const compactionsSelect = (checksums = true) => `SELECT id, horizon_resource_version AS "horizonResourceVersion", horizon_time AS "horizonTime", actor_user AS "actorUser",
  started_at AS "startedAt", finished_at AS "finishedAt", removed_writes AS "removedWrites", removed_objects AS "removedObjects", removed_bytes AS "removedBytes",
  ${checksums ? 'facts_checksum AS "factsChecksum", facts_checksum_after AS "factsChecksumAfter"' : 'NULL AS "factsChecksum", NULL AS "factsChecksumAfter"'}
  FROM compactions`;
const COMPACTIONS = compactionsSelect();

/** The compaction the next checksum link goes on from: the one with a checksum and the newest horizon below $1. */
const CHECKSUM_BEFORE = `SELECT horizon_resource_version AS "horizon", facts_checksum AS "checksum" FROM compactions
  WHERE facts_checksum IS NOT NULL AND horizon_resource_version < $1 ORDER BY horizon_resource_version DESC LIMIT 1`;

/** The newest write at or before position $1 (a write's resourceVersion is the position of its last event). */
const WRITE_AT_OR_BEFORE = `SELECT position AS "resourceVersion", recorded_at AS "time" FROM events
  WHERE position <= $1 AND position = resource_version ORDER BY position DESC LIMIT 1`;

const UNPATCHED_BELOW = 'SELECT 1 AS unpatched FROM service_revisions WHERE patch IS NULL AND resource_version < $1 LIMIT 1';

/** Where the revisions, their kept facts and the lifetimes are: the live tables, or a fold's (replay, verify). */
export interface RevisionTables {
  revisions: string;
  facts: string;
  lifetimes: string;
}

export const LIVE_TABLES: RevisionTables = { revisions: 'service_revisions', facts: 'revision_facts', lifetimes: 'service_lifetimes' };

/** A revision that goes, as stored: its object and patch are stored texts. */
interface GoingRevision {
  uid: string;
  rv: number;
  namespace: string;
  name: string;
  recordedAt: string;
  object: StoredText;
  patch: StoredText;
}

/**
 * The statements that find the revisions below the horizon $1 in `tables.revisions` that go:
 * `nextKeys` finds the next $4 revisions at or below the horizon after the key ($2, $3);
 * `going` reads and `remove` deletes those that go in the key range [($2, $3), ($4, $5)]: every
 * revision at or below the horizon but the anchor of each Service alive at it (its newest
 * revision at or before the horizon), found for the range's Services at once. Both walk the
 * revisions' primary key (a fold's tables get one first: pg-store-horizon.ts).
 */
function compactionStatements(tables: RevisionTables): { nextKeys: string; going: string; remove: string } {
  const { revisions, lifetimes } = tables;
  const going = `${revisions} r
  WHERE r.resource_version <= $1 AND (r.uid, r.resource_version) >= ($2, $3) AND (r.uid, r.resource_version) <= ($4, $5)
    AND (r.uid, r.resource_version) NOT IN (SELECT a.uid, max(a.resource_version) FROM ${revisions} a JOIN ${lifetimes} l ON l.uid = a.uid
      WHERE a.resource_version <= $1 AND a.uid >= $2 AND a.uid <= $4 AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > $1) GROUP BY a.uid)`;
  return {
    nextKeys: `SELECT uid, resource_version AS rv FROM ${revisions}
  WHERE (uid, resource_version) > ($2, $3) AND resource_version <= $1
  ORDER BY uid, resource_version LIMIT $4`,
    going: `SELECT r.uid, r.resource_version AS rv, r.namespace, r.name, r.recorded_at AS "recordedAt", r.object, r.patch FROM ${going}`,
    // Not DELETE … USING (the engines differ): the rows are named by their key.
    remove: `DELETE FROM ${revisions} WHERE (uid, resource_version) IN (SELECT r.uid, r.resource_version FROM ${going})`,
  };
}

const FACT_COLUMNS = 'uid, resource_version, namespace, name, recorded_at, managed_fields, patch';

/** The kept facts of a revision: its row without the object, with the object's managedFields (encoded; null: none). */
function factRow(row: GoingRevision): unknown[] {
  const managed = (JSON.parse(decodeStoredText(row.object)) as Service).metadata.managedFields;
  return [row.uid, row.rv, row.namespace, row.name, row.recordedAt, managed === undefined ? null : encodeStoredText(JSON.stringify(managed)), row.patch];
}

/**
 * The inserts of the revisions' facts: on SQLite a statement per row (one text, prepared once),
 * on PostgreSQL one statement over arrays (one round trip).
 */
function factInserts(dialect: DialectName, facts: string, rows: readonly GoingRevision[]): SqlStatement[] {
  const cells = rows.map(factRow);
  if (dialect === 'sqlite') return cells.map((params) => ({ sql: `INSERT INTO ${facts} (${FACT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, params }));
  const types = ['text', 'bigint', 'text', 'text', 'text', 'bytea', 'bytea'];
  return [{ sql: `INSERT INTO ${facts} (${FACT_COLUMNS}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`, params: types.map((_, i) => cells.map((c) => c[i])) }];
}

/**
 * One step of moving revisions: a read, whose rows the driver hands back, or a write transaction
 * over `revisions` examined revisions.
 */
export type RemovalStep = { read: SqlStatement } | { write: SqlStatement[]; revisions: number };

/**
 * Moving every revision at or below the horizon but the anchors into the facts table (its object
 * gone), `batch()` revisions examined per transaction, as steps an engine's driver runs: the
 * compaction's (asynchronous, over the SQL port) and a fold's (synchronous, on SQLite's scratch
 * file). Each batch's objects are read out and decoded for their managedFields: no SQL reads
 * inside a stored text.
 */
export function* removalSteps(
  dialect: DialectName,
  horizon: number,
  tables: RevisionTables,
  options: { progress?: (examined: number) => void; batch?: () => number } = {},
): Generator<RemovalStep, { objects: number; bytes: number }, unknown[]> {
  const { progress, batch = () => FIRST_BATCH } = options;
  const statements = compactionStatements(tables);
  let objects = 0;
  let bytes = 0;
  let examined = 0;
  for (let after: { uid: string; rv: number } = { uid: '', rv: 0 }; ;) {
    const keys = (yield { read: { sql: statements.nextKeys, params: [horizon, after.uid, after.rv, batch()] } }) as { uid: string; rv: number }[];
    if (!keys.length) return { objects, bytes };
    const first = keys[0];
    const last = keys[keys.length - 1];
    const range = [horizon, first.uid, first.rv, last.uid, last.rv];
    const going = (yield { read: { sql: statements.going, params: range } }) as GoingRevision[];
    yield { write: [...factInserts(dialect, tables.facts, going), { sql: statements.remove, params: range }], revisions: keys.length };
    objects += going.length;
    for (const row of going) bytes += storedTextBytes(row.object);
    examined += keys.length;
    progress?.(examined);
    after = { uid: last.uid, rv: Number(last.rv) };
  }
}

/**
 * Runs removalSteps over the SQL port (beside a running server, in its group commit), each
 * transaction sized from the ones before to take about TARGET_HOLD_MS.
 */
export async function removeObjectsBelow(
  db: SqlWriter,
  horizon: number,
  options: { tables?: RevisionTables; progress?: (examined: number) => void } = {},
): Promise<{ objects: number; bytes: number }> {
  const sizer = new BatchSizer(FIRST_BATCH, TARGET_HOLD_MS, 20, 20_000);
  const steps = removalSteps(db.dialect.name, horizon, options.tables ?? LIVE_TABLES, { progress: options.progress, batch: () => sizer.next });
  for (let next = steps.next([]); ;) {
    if (next.done) return next.value;
    const step = next.value;
    if ('read' in step) {
      next = steps.next(await db.all(step.read.sql, step.read.params));
      continue;
    }
    const started = performance.now();
    const outcome = await db.transaction(step.write);
    sizer.observe(step.revisions, performance.now() - started);
    next = steps.next(outcome);
  }
}

/** Writes in [$1, $2): those that fall below a horizon moved from $1 to $2. */
const WRITES_BETWEEN = 'SELECT count(*) AS writes FROM events WHERE position >= $1 AND position < $2 AND position = resource_version';

export class HistoryCompaction implements HistoryCompactor {
  constructor(
    private readonly db: SqlWriter,
    private readonly reads: Pick<ServiceReads, 'resourceVersionAt' | 'head'>,
    /** Gives the freed space back to the file system (after the objects went). */
    private readonly reclaim: () => Promise<void>,
    private readonly now: () => string,
  ) {}

  list(): Promise<Compaction[]> {
    return readCompactions(this.db);
  }

  async compact(request: CompactionRequest): Promise<CompactionOutcome> {
    const horizon = await this.horizonFor(request);
    if (!horizon) return { kind: 'empty' };
    const latest = (await this.db.all<CompactionRow>(`${COMPACTIONS} ORDER BY id DESC LIMIT 1`))[0];
    if (latest && (horizon.resourceVersion < latest.horizonResourceVersion || (horizon.resourceVersion === latest.horizonResourceVersion && latest.finishedAt !== null))) {
      return { kind: 'unchanged', compaction: toCompaction(latest) };
    }
    if (await this.db.one(UNPATCHED_BELOW, [horizon.resourceVersion])) {
      throw new Error('some revisions below the horizon still lack their stored patch (written before migration 0007): start the server once, which computes them, then compact');
    }
    const row = latest && latest.horizonResourceVersion === horizon.resourceVersion ? latest : await this.record(horizon, request.actor);
    const removed = await removeObjectsBelow(this.db, horizon.resourceVersion, { progress: request.progress });
    const previousHorizon = latest && latest.id !== row.id ? latest.horizonResourceVersion : 0;
    const writes = row === latest ? row.removedWrites : Number((await this.db.one<{ writes: number }>(WRITES_BETWEEN, [previousHorizon, horizon.resourceVersion]))!.writes);
    const link = await this.db.one<{ horizon: number; checksum: string }>(CHECKSUM_BEFORE, [horizon.resourceVersion]);
    const after = link ? Number(link.horizon) : 0;
    const checksum = await factsChecksum(this.db, { after, through: horizon.resourceVersion }, link?.checksum ?? null);
    const finishedAt = this.now();
    const objects = row.removedObjects + removed.objects;
    const bytes = row.removedBytes + removed.bytes;
    await this.db.transaction([
      {
        sql: `UPDATE compactions SET finished_at = $1, removed_writes = $2, removed_objects = $3, removed_bytes = $4, facts_checksum = $5, facts_checksum_after = $6
  WHERE id = $7`,
        params: [finishedAt, writes, objects, bytes, checksum, after, row.id],
      },
    ]);
    await this.reclaim();
    const done = { ...row, finishedAt, removedWrites: writes, removedObjects: objects, removedBytes: bytes, factsChecksum: checksum, factsChecksumAfter: after };
    return { kind: 'compacted', compaction: toCompaction(done) };
  }

  /** The newest write at or before the point asked for (none: no write then). */
  private async horizonFor(request: CompactionRequest): Promise<{ resourceVersion: number; time: string } | undefined> {
    const { point } = request;
    const head = await this.reads.head();
    if (point.kind === 'resourceVersion' && point.resourceVersion > head) {
      throw new Error(`resourceVersion ${point.resourceVersion} is newer than the log, whose newest resourceVersion is ${head}`);
    }
    const position = point.kind === 'resourceVersion' ? point.resourceVersion : await this.reads.resourceVersionAt(point.time);
    const write = await this.db.one<{ resourceVersion: number; time: string }>(WRITE_AT_OR_BEFORE, [position]);
    if (!write) return undefined;
    return { resourceVersion: Number(write.resourceVersion), time: write.time };
  }

  /** The horizon, recorded (and so in force for every read) before anything is removed. */
  private async record(horizon: { resourceVersion: number; time: string }, actor: string): Promise<CompactionRow> {
    const startedAt = this.now();
    // The id is taken inside the INSERT: two compactions started at once (a command beside the
    // server, two replicas' retention) never claim the same one.
    const [inserted] = await this.db.transaction([
      {
        sql: `INSERT INTO compactions (id, horizon_resource_version, horizon_time, actor_user, started_at)
  SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4 FROM compactions RETURNING id`,
        params: [horizon.resourceVersion, horizon.time, actor, startedAt],
      },
    ]);
    return {
      id: Number((inserted.rows[0] as { id: number }).id),
      horizonResourceVersion: horizon.resourceVersion,
      horizonTime: horizon.time,
      actorUser: actor,
      startedAt,
      finishedAt: null,
      removedWrites: 0,
      removedObjects: 0,
      removedBytes: 0,
      factsChecksum: null,
      factsChecksumAfter: null,
    };
  }
}

/** Every compaction recorded, oldest first. */
export async function readCompactions(db: SqlReader, options: { checksums?: boolean } = {}): Promise<Compaction[]> {
  return (await db.all<CompactionRow>(`${compactionsSelect(options.checksums)} ORDER BY id`)).map(toCompaction);
}

/** Records compactions as they are (an import of a compacted store's export). */
export function compactionInserts(compactions: readonly Compaction[]): SqlStatement[] {
  return compactions.map((c) => ({
    sql: `INSERT INTO compactions (id, horizon_resource_version, horizon_time, actor_user, started_at, finished_at, removed_writes, removed_objects, removed_bytes,
  facts_checksum, facts_checksum_after)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    params: [
      c.id,
      c.horizon.resourceVersion,
      c.horizon.time,
      c.actor.user,
      c.startedAt,
      c.finishedAt ?? null,
      c.removed.writes,
      c.removed.objects,
      c.removed.bytes,
      c.facts?.checksum ?? null,
      c.facts?.after ?? null,
    ],
  }));
}

function toCompaction(row: CompactionRow): Compaction {
  return {
    id: Number(row.id),
    horizon: { resourceVersion: Number(row.horizonResourceVersion), time: row.horizonTime },
    actor: { user: row.actorUser },
    startedAt: row.startedAt,
    ...(row.finishedAt !== null ? { finishedAt: row.finishedAt } : {}),
    removed: { writes: Number(row.removedWrites), objects: Number(row.removedObjects), bytes: Number(row.removedBytes) },
    ...(row.factsChecksum !== null && row.factsChecksumAfter !== null ? { facts: { checksum: row.factsChecksum, after: Number(row.factsChecksumAfter) } } : {}),
  };
}
