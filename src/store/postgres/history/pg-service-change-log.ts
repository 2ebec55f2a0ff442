// ServiceChanges on PostgreSQL: the same watch changes as ServiceChangeLog, read a batch of the
// log at a time, each event with the revision its write produced and the one it replaced.
import type { ServiceEvent } from '../../../domain/service.events';
import type { Service } from '../../../domain/service.types';
import { deletedObject, ServiceChange } from '../../../watch/service-change';
import type { ServiceChanges } from '../../service-change-log';
import type { Queryable } from '../postgres-database';

interface EventRow {
  position: number;
  rv: number;
  uid: string;
  type: string;
  data: string;
  /** On a write's last event only: the revision it wrote and the one before it. */
  object: string | null;
  previous: string | null;
}

/** Events read per round. */
const BATCH = 500;

export class PgServiceChangeLog implements ServiceChanges {
  constructor(private readonly db: Queryable) {}

  async oldestResumable(): Promise<number> {
    const { rows } = await this.db.query<{ first: number | null }>('SELECT min(position) AS first FROM events');
    return rows[0].first === null ? 0 : rows[0].first - 1;
  }

  async changesAfter(resourceVersion: number, limit: number): Promise<ServiceChange[]> {
    const writes: EventRow[][] = [];
    for (let after = resourceVersion, batch = BATCH; writes.length < limit; ) {
      // A seek on the primary key, then the log in order; the revisions are read on each write's
      // last event (position = resource_version), where the SQLite log reads them per write.
      const { rows } = await this.db.query<EventRow>(
        `SELECT e.position, e.resource_version AS rv, e.stream_id AS uid, e.type, e.data, r.object,
           CASE WHEN e.position = e.resource_version THEN (SELECT p.object FROM service_revisions p
             WHERE p.uid = e.stream_id AND p.resource_version < e.resource_version ORDER BY p.resource_version DESC LIMIT 1) END AS previous
         FROM events e LEFT JOIN service_revisions r ON e.position = e.resource_version AND r.uid = e.stream_id AND r.resource_version = e.resource_version
         WHERE e.position > $1 ORDER BY e.position LIMIT $2`,
        [after, batch],
      );
      const before = writes.length;
      let start = 0;
      for (let i = 1; i <= rows.length && writes.length < limit; i++) {
        if (i < rows.length && rows[i].rv === rows[start].rv) continue;
        // A full batch may end inside a write: that one is read again by the next round.
        if (i === rows.length && rows.length === batch && rows[i - 1].position !== rows[i - 1].rv) break;
        writes.push(rows.slice(start, i));
        after = rows[i - 1].position;
        start = i;
      }
      if (rows.length < batch) break;
      // (A write longer than a whole batch: read a longer one.)
      if (writes.length === before) batch *= 2;
    }
    return writes.map((rows) => change(rows));
  }
}

function change(rows: EventRow[]): ServiceChange {
  const last = rows[rows.length - 1];
  const rv = last.rv;
  const created = rows.some((r) => r.type === 'ServiceCreated');
  const previous = !created && last.previous ? (JSON.parse(last.previous) as Service) : null;
  if (rows.some((r) => r.type === 'ServiceDeleted')) {
    const events = rows.map((e) => ({ type: e.type, data: JSON.parse(e.data) }) as ServiceEvent);
    const before = { object: previous, streamVersion: 0, deleted: false };
    return { resourceVersion: rv, type: 'DELETED', object: deletedObject(before, events, rv), previous };
  }
  return { resourceVersion: rv, type: created ? 'ADDED' : 'MODIFIED', object: JSON.parse(last.object!) as Service, previous };
}
