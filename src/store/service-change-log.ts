// Reads the past as a sequence of watch changes: every write after a resourceVersion, with the
// object it produced and the one it replaced, from the events and revisions tables. This is
// what lets a watch resume from any resourceVersion the log still holds.
import type { ServiceEvent } from '../domain/service.events';
import type { Service } from '../domain/service.types';
import { deletedObject, ServiceChange } from '../watch/service-change';
import { withStoredJson } from '../watch/stored-object-json';
import type { DatabaseHandle } from './database';

interface EventRow {
  position: number;
  rv: number;
  uid: string;
  streamVersion: number;
  type: string;
  data: string;
}

/** The past as watch changes, for resuming a watch from a resourceVersion (either engine). */
export interface ServiceChanges {
  /** The oldest resourceVersion a watch can resume from (the log's first position - 1). */
  oldestResumable(): Promise<number>;
  /** Up to `limit` writes after `resourceVersion`, oldest first. */
  changesAfter(resourceVersion: number, limit: number): Promise<ServiceChange[]>;
}

/** DI token of the engine's ServiceChanges. */
export const SERVICE_CHANGES = Symbol('SERVICE_CHANGES');

export class ServiceChangeLog implements ServiceChanges {
  private readonly eventsAfter;
  private readonly revisionAt;
  private readonly revisionBefore;
  private readonly oldest;

  constructor(handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    // A seek on the primary key, then the log in order: resuming from an old resourceVersion
    // costs the same as from the newest.
    this.eventsAfter = sqlite.prepare(
      `SELECT position, resource_version AS rv, stream_id AS uid, stream_version AS streamVersion, type, data
       FROM events WHERE position > ? ORDER BY position`,
    );
    this.revisionAt = sqlite.prepare('SELECT object FROM service_revisions WHERE uid = ? AND resource_version = ?').pluck();
    this.revisionBefore = sqlite
      .prepare('SELECT object FROM service_revisions WHERE uid = ? AND resource_version < ? ORDER BY resource_version DESC LIMIT 1')
      .pluck();
    this.oldest = sqlite.prepare('SELECT min(position) FROM events').pluck();
  }

  /** The oldest resourceVersion a watch can resume from (the log's first position - 1). */
  async oldestResumable(): Promise<number> {
    const first = this.oldest.get() as number | null;
    return first === null ? 0 : first - 1;
  }

  /** Up to `limit` writes after `resourceVersion`, oldest first. */
  async changesAfter(resourceVersion: number, limit: number): Promise<ServiceChange[]> {
    // Group the log's rows into writes (consecutive rows sharing a resourceVersion); the cursor
    // stops at the first row past the last wanted write.
    const writes: EventRow[][] = [];
    for (const row of this.eventsAfter.iterate(resourceVersion) as Iterable<EventRow>) {
      const last = writes[writes.length - 1];
      if (last && last[0].rv === row.rv) last.push(row);
      else if (writes.length === limit) break;
      else writes.push([row]);
    }
    return writes.map((rows) => this.change(rows));
  }

  private change(rows: EventRow[]): ServiceChange {
    const { rv, uid } = rows[0];
    const created = rows.some((r) => r.type === 'ServiceCreated');
    const previousOf = () => {
      const json = created ? undefined : (this.revisionBefore.get(uid, rv) as string | undefined);
      return json ? (JSON.parse(json) as Service) : null;
    };
    if (rows.some((r) => r.type === 'ServiceDeleted')) {
      const previous = previousOf();
      const events = rows.map((e) => ({ type: e.type, data: JSON.parse(e.data) }) as ServiceEvent);
      const before = { object: previous, streamVersion: 0, deleted: false };
      return { resourceVersion: rv, type: 'DELETED', object: deletedObject(before, events, rv), previous };
    }
    const json = this.revisionAt.get(uid, rv) as string;
    const object = withStoredJson(JSON.parse(json) as Service, json);
    if (created) return { resourceVersion: rv, type: 'ADDED', object, previous: null };
    return new ResumedModification(rv, object, previousOf);
  }
}

/**
 * A MODIFIED change read from the log. The previous object is read only when a watcher's label
 * or field selector looks at it (a past revision never changes, so reading it later reads the
 * same): a watch without selectors resumes with one revision read per write, not two. A class,
 * not a literal with a getter, whose accessor pair V8 would allocate in old space per change
 * (see JsonPieces).
 */
class ResumedModification implements ServiceChange {
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
  toJSON(): ServiceChange {
    return { resourceVersion: this.resourceVersion, type: this.type, object: this.object, previous: this.previous };
  }
}
