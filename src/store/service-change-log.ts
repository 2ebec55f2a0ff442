// Reads the past as a sequence of watch changes: every write after a resourceVersion, with the
// object it produced and the one it replaced, from the events and revisions tables. This is
// what lets a watch resume from any resourceVersion the log still holds.
import type { ServiceEvent } from '../domain/service.events';
import type { Service } from '../domain/service.types';
import { deletedObject, type ServiceWatchChange } from '../domain/service-change';
import { withStoredJson } from '../domain/codec/stored-object-json';
import { type SqlReader } from './sql/sql-reader';
import { decodeStoredText, type StoredText } from './stored-text-codec';
import type { ServiceChanges } from './ports/service-changes';
import { serviceRowsOnly } from './sql/log-stream-kinds';
import { eventDataText, type StoredEventData } from './packed-event-data';

interface ChangeRow extends StoredEventData {
  position: number;
  rv: number;
  uid: string;
  type: string;
  /** On a write's last event only: the revision it wrote (a stored text)... */
  object: StoredText | null;
  /** ...and the one before it, when the reader reads it with the batch (PostgreSQL). */
  previous: StoredText | null;
}

/** Events read per round, at most. */
const BATCH = 500;

const OLDEST_RESUMABLE = `SELECT max(oldest) AS oldest FROM (
  SELECT coalesce(min(position) - 1, 0) AS oldest FROM events
  UNION ALL SELECT coalesce(max(horizon_resource_version), 0) FROM compactions) o`;

const REVISION_BEFORE = 'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version < $2 ORDER BY resource_version DESC LIMIT 1';

/**
 * A seek on the primary key, then the log in order (resuming from an old resourceVersion costs
 * the same as from the newest), the revisions read on each write's last event (position =
 * resource_version). The previous revision is read here only where a read is a round trip;
 * SQLite reads it when a watcher asks for it (ResumedModification).
 */
const eventsAfter = (withPrevious: boolean) => `SELECT e.position, e.resource_version AS rv, e.stream_id AS uid, e.type, e.data AS "plainData", e.packed_data AS "packedData", r.object,
  ${
    withPrevious
      ? `CASE WHEN e.position = e.resource_version THEN (SELECT p.object FROM service_revisions p
    WHERE p.uid = e.stream_id AND p.resource_version < e.resource_version ORDER BY p.resource_version DESC LIMIT 1) END`
      : 'NULL'
  } AS previous
  FROM events e LEFT JOIN service_revisions r ON e.position = e.resource_version AND r.uid = e.stream_id AND r.resource_version = e.resource_version
  WHERE e.position > $1 AND ${serviceRowsOnly('e')} ORDER BY e.position LIMIT $2`;

export class ServiceChangeLog implements ServiceChanges {
  private readonly eventsAfter: string;

  constructor(private readonly db: SqlReader) {
    this.eventsAfter = eventsAfter(db.immediate === undefined);
  }

  /** The oldest resourceVersion a watch can resume from: the log's first position - 1, or the compaction horizon. */
  async oldestResumable(): Promise<number> {
    return (await this.db.one<{ oldest: number }>(OLDEST_RESUMABLE))!.oldest;
  }

  /** Up to `limit` writes after `resourceVersion`, oldest first. */
  async changesAfter(resourceVersion: number, limit: number): Promise<ServiceWatchChange[]> {
    // The log's rows grouped into writes (consecutive rows sharing a resourceVersion), a batch at
    // a time: each about what the writes still wanted take, at the events per write seen so far.
    const writes: ChangeRow[][] = [];
    let events = 0;
    for (let after = resourceVersion, batch = Math.min(BATCH, limit + 1); writes.length < limit;) {
      const rows = await this.db.all<ChangeRow>(this.eventsAfter, [after, batch]);
      const before = writes.length;
      let start = 0;
      for (let i = 1; i <= rows.length && writes.length < limit; i++) {
        if (i < rows.length && rows[i].rv === rows[start].rv) continue;
        // A full batch may end inside a write: that one is read again by the next round.
        if (i === rows.length && rows.length === batch && rows[i - 1].position !== rows[i - 1].rv) break;
        writes.push(rows.slice(start, i));
        events += i - start;
        after = rows[i - 1].position;
        start = i;
      }
      if (rows.length < batch) break;
      // (A write longer than a whole batch: read a longer one.)
      if (writes.length === before) batch *= 2;
      else batch = Math.min(BATCH, Math.ceil(((limit - writes.length) * events) / writes.length) + 1);
    }
    return writes.map((rows) => this.change(rows));
  }

  private change(rows: ChangeRow[]): ServiceWatchChange {
    const last = rows[rows.length - 1];
    const { rv, uid } = last;
    const created = rows.some((r) => r.type === 'ServiceCreated');
    const immediate = this.db.immediate;
    const previousOf = (): Service | null => {
      const stored = created ? null : immediate ? immediate.one<{ object: StoredText }>(REVISION_BEFORE, [uid, rv])?.object : last.previous;
      return stored ? (JSON.parse(decodeStoredText(stored)) as Service) : null;
    };
    if (rows.some((r) => r.type === 'ServiceDeleted')) {
      const previous = previousOf();
      const events = rows.map((e) => ({ type: e.type, data: JSON.parse(eventDataText(e)) }) as ServiceEvent);
      const before = { object: previous, streamVersion: 0, deleted: false };
      return { resourceVersion: rv, type: 'DELETED', object: deletedObject(before, events, rv), previous };
    }
    const json = decodeStoredText(last.object!);
    const object = withStoredJson(JSON.parse(json) as Service, json);
    if (created) return { resourceVersion: rv, type: 'ADDED', object, previous: null };
    return immediate ? new ResumedModification(rv, object, previousOf) : { resourceVersion: rv, type: 'MODIFIED', object, previous: previousOf() };
  }
}

/**
 * A MODIFIED change read from SQLite's log. The previous object is read only when a watcher's label
 * or field selector looks at it (a past revision never changes, so reading it later reads the
 * same): a watch without selectors resumes with one revision read per write, not two. A class,
 * not a literal with a getter, whose accessor pair V8 would allocate in old space per change
 * (see JsonPieces).
 */
class ResumedModification implements ServiceWatchChange {
  readonly type = 'MODIFIED' as const;
  private read?: Service | null;

  constructor(
    readonly resourceVersion: number,
    readonly object: Service,
    private readonly previousOf: () => Service | null,
  ) {}

  get previous(): Service | null {
    return this.read === undefined ? (this.read = this.previousOf()) : this.read;
  }

  /** Serialized as the plain change it stands for (the PostgreSQL engine's), previous included. */
  toJSON(): ServiceWatchChange {
    return { resourceVersion: this.resourceVersion, type: this.type, object: this.object, previous: this.previous };
  }
}
