// What a compaction records of the log it leaves below its horizon, and verify checks: sha256 over
// the events in (after, horizon], in order, each as a JSON array of its columns' values (integers
// as numbers, so both engines give the same bytes), seeded with the checksum recorded by the
// compaction at `after` (none: the log's start). Chained, so that each compaction reads only what
// fell below its horizon since the one before, and each link verifies on its own.
//
// The events are what every fact below the horizon is folded from (change records and their
// patches, condition transitions, ingress intervals, field ownership, the revisions' kept
// facts), and verify compares every one of those tables with a fold of the events: unchanged
// events and projections equal to their fold mean unchanged facts.
import { createHash } from 'node:crypto';
import { eventDataText } from './packed-event-data';
import { REPEATED_TEXT_COLUMNS, repeatedText, type RepeatedTextColumn } from './sql/event-columns';
import type { SqlReader } from './sql/sql-reader';
import type { SqlStatement } from './sql/sql-writer';

/** Events read per statement. */
const PAGE = 2000;

/** Every column of an event, in the order hashed: a stored format, never reordered. */
const COLUMNS = [
  'position',
  'resource_version',
  'stream_id',
  'stream_version',
  'namespace',
  'name',
  'type',
  'data',
  'recorded_at',
  'actor_user',
  'actor_groups',
  'user_agent',
  'field_manager',
  'request_id',
  'verb',
  'subresource',
] as const;
const INTEGERS = new Set<string>(['position', 'resource_version', 'stream_version']);

// The data as it means, packed or not: a packed store's checksum is the one it had before.
const TEXTS = new Set<string>(REPEATED_TEXT_COLUMNS);
// Each repeated text as its text, whether stored by id or not yet converted.
const EVENTS_PAGE = `SELECT ${COLUMNS.map((c) => (TEXTS.has(c) ? `${repeatedText(c as RepeatedTextColumn)} AS ${c}` : c)).join(', ')}, packed_data FROM events
  WHERE position > $1 AND position <= $2 ORDER BY position LIMIT ${PAGE}`;
const valueOf = (row: Record<string, unknown>, column: (typeof COLUMNS)[number]) =>
  INTEGERS.has(column) ? Number(row[column]) : column === 'data' ? eventDataText({ plainData: row.data as string, packedData: (row.packed_data as Buffer | null | undefined) ?? null }) : row[column];

export interface FactsRange {
  /** The horizon of the compaction the chain goes on from (0: the log's start). */
  after: number;
  /** This compaction's horizon. */
  through: number;
}

/** The checksum's reads as steps a driver runs (a compaction's, asynchronous; verify's on SQLite, synchronous). */
export function* factsChecksumSteps(range: FactsRange, seed: string | null): Generator<SqlStatement, string, unknown[]> {
  const hash = createHash('sha256');
  if (seed !== null) hash.update(seed);
  for (let position = range.after; ;) {
    const rows = (yield { sql: EVENTS_PAGE, params: [position, range.through] }) as Record<string, unknown>[];
    // One update per page: a call per row costs more than hashing the row.
    hash.update(rows.map((row) => `${JSON.stringify(COLUMNS.map((c) => valueOf(row, c)))}\n`).join(''));
    if (rows.length < PAGE) break;
    position = Number(rows[rows.length - 1].position);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** The checksum of the events in the range, over the SQL port. */
export async function factsChecksum(db: SqlReader, range: FactsRange, seed: string | null): Promise<string> {
  const steps = factsChecksumSteps(range, seed);
  for (let next = steps.next([]); ;) {
    if (next.done) return next.value;
    next = steps.next(await db.all(next.value.sql, next.value.params));
  }
}

/** A compaction as its checksum link names it. */
export interface ChecksumLink {
  id: number;
  horizon: number;
  /** Absent: recorded before checksums, or still running. */
  checksum?: string;
  after?: number;
}

/**
 * The seed and range of each recorded link, from the compactions' records: the checksum of the
 * compaction at `after` (a link whose predecessor is missing is checked against an impossible seed,
 * so it fails).
 */
export function checksumLinks(compactions: readonly ChecksumLink[]): { id: number; range: FactsRange; seed: string | null; recorded: string }[] {
  return compactions.flatMap((c) => {
    if (c.checksum === undefined || c.after === undefined) return [];
    const seed = c.after === 0 ? null : (compactions.find((p) => p.horizon === c.after && p.checksum !== undefined)?.checksum ?? `missing compaction at ${c.after}`);
    return [{ id: c.id, range: { after: c.after, through: c.horizon }, seed, recorded: c.checksum }];
  });
}
