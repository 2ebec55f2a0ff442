// Reads the past as a sequence of watch changes: every write after a resourceVersion, with the
// object it produced and the one it replaced, from the events and revisions tables. This is
// what lets a watch resume from any resourceVersion the log still holds.
import type { ServiceEvent } from '../domain/service.events';
import type { Service } from '../domain/service.types';
import { deletedObject, ServiceChange } from '../watch/service-change';
import type { DatabaseHandle } from './database';

export class ServiceChangeLog {
  private readonly writesAfter;
  private readonly revisionAt;
  private readonly revisionEndingAt;
  private readonly oldest;
  private readonly eventsOfWrite;

  constructor(handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.writesAfter = sqlite.prepare(
      `SELECT resource_version AS rv, stream_id AS uid, max(type = 'ServiceCreated') AS created, max(type = 'ServiceDeleted') AS deleted
       FROM events WHERE position > ? GROUP BY resource_version ORDER BY resource_version LIMIT ?`,
    );
    this.revisionAt = sqlite.prepare('SELECT object FROM service_revisions WHERE uid = ? AND resource_version = ?').pluck();
    this.revisionEndingAt = sqlite.prepare('SELECT object FROM service_revisions WHERE uid = ? AND valid_until = ?').pluck();
    this.oldest = sqlite.prepare('SELECT min(position) FROM events').pluck();
    this.eventsOfWrite = sqlite.prepare('SELECT type, data FROM events WHERE resource_version = ? ORDER BY position');
  }

  /** The oldest resourceVersion a watch can resume from (the log's first position - 1). */
  oldestResumable(): number {
    const first = this.oldest.get() as number | null;
    return first === null ? 0 : first - 1;
  }

  /** Up to `limit` writes after `resourceVersion`, oldest first. */
  changesAfter(resourceVersion: number, limit: number): ServiceChange[] {
    const rows = this.writesAfter.all(resourceVersion, limit) as { rv: number; uid: string; created: number; deleted: number }[];
    return rows.map((row) => {
      const previousJson = this.revisionEndingAt.get(row.uid, row.rv) as string | undefined;
      const previous = previousJson ? (JSON.parse(previousJson) as Service) : null;
      if (row.deleted) {
        const events = (this.eventsOfWrite.all(row.rv) as { type: string; data: string }[]).map(
          (e) => ({ type: e.type, data: JSON.parse(e.data) }) as ServiceEvent,
        );
        const before = { object: previous, streamVersion: 0, deleted: false };
        return { resourceVersion: row.rv, type: 'DELETED', object: deletedObject(before, events, row.rv), previous };
      }
      const object = JSON.parse(this.revisionAt.get(row.uid, row.rv) as string) as Service;
      return { resourceVersion: row.rv, type: row.created ? 'ADDED' : 'MODIFIED', object, previous };
    });
  }
}
