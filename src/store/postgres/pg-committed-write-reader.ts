// Reads the log back as committed writes: every write after a resourceVersion, in log order,
// with the stream's state before it and after it, as the writer's own CommittedWrite held them.
// This is how a replica learns of the writes other replicas made (the change feed is fed from
// here on PostgreSQL) and how a watch resumes from an old resourceVersion on any replica.
//
// `before` is the revision the stream had before the write (none for a creation), `after` the
// revision the write stored, or the fold of its events onto `before` for a deletion (which
// stores no revision): the same fold the write path did, so a reader cannot tell the two apart.
import type { Service } from '../../domain/service.types';
import { foldWrite } from '../../projections/committed-write';
import type { LoggedWrite } from '../ports/committed-event-write';
import { isEventRecord, type RecordedEvent } from '../ports/recorded-event';
import { eventRowsOnly } from '../sql/log-stream-kinds';
import { foldEventWrite } from '../../projections/committed-event-write';
import { evolveKubeEvent, initialKubeEventState } from '../../domain/kube-event/kube-event.evolve';
import type { KubeEventFact } from '../../domain/kube-event/kube-event.facts';
import type { WriteObservation } from '../ports/mirror-source-store';
import { storedToRecorded } from '../event-store';
import { eventColumns, type StoredEventRow } from '../sql/event-columns';
import { eventDataText } from '../packed-event-data';
import { RepeatedTextCache } from '../repeated-text-cache';
import { PgSqlReader } from './pg-sql-reader';
import type { Queryable } from './postgres-database';
import { decodeStoredText } from '../stored-text-codec';

type WriteRow = StoredEventRow & {
  /** The stream's revision before this event's write (null for none), as stored. */
  previous: Buffer | null;
  /** The revision this event's write stored (null for a deletion). */
  current: Buffer | null;
  /** Mirror mode: where the write came from (on its last event's row; null for a direct write). */
  observed_source_rv: string | null;
  observed_via: WriteObservation['via'] | null;
  observed_at: string | null;
  /** An Event's fact: its stream's previous fact's data (as stored) and position (null for none, and for a Service's row). */
  previous_fact: string | null;
  previous_packed_fact: Buffer | null;
  previous_position: number | null;
};

// Two primary-key seeks per event on service_revisions (uid, resource_version).
const WRITES_AFTER = `
SELECT ${eventColumns('e')},
  (SELECT r.object FROM service_revisions r WHERE r.uid = e.stream_id AND r.resource_version < e.resource_version
    ORDER BY r.resource_version DESC LIMIT 1) AS previous,
  (SELECT r.object FROM service_revisions r WHERE r.uid = e.stream_id AND r.resource_version = e.resource_version) AS current,
  o.source_resource_version AS observed_source_rv, o.via AS observed_via, o.observed_at,
  CASE WHEN ${eventRowsOnly('e')} THEN (SELECT p.data FROM events p WHERE p.stream_id = e.stream_id AND p.stream_version = e.stream_version - 1) END AS previous_fact,
  CASE WHEN ${eventRowsOnly('e')} THEN (SELECT p.packed_data FROM events p WHERE p.stream_id = e.stream_id AND p.stream_version = e.stream_version - 1) END AS previous_packed_fact,
  CASE WHEN ${eventRowsOnly('e')} THEN (SELECT p.position FROM events p WHERE p.stream_id = e.stream_id AND p.stream_version = e.stream_version - 1) END AS previous_position
FROM events e LEFT JOIN observed_writes o ON e.position = e.resource_version AND o.resource_version = e.resource_version
WHERE e.position > $1 ORDER BY e.position LIMIT $2`;

/** markAt's text for the last row of a write read or made here. */
export function writeMark(write: LoggedWrite): string {
  const last = write.events[write.events.length - 1];
  return [last.streamId, last.streamVersion, last.metadata.recordedAt, last.metadata.requestId].join(' ');
}

export interface CommittedWritesPage {
  writes: LoggedWrite[];
  /** False when more writes follow the page's last one. */
  complete: boolean;
}

export class PgCommittedWriteReader {
  private readonly texts: RepeatedTextCache;

  constructor(private readonly db: Queryable) {
    this.texts = new RepeatedTextCache(new PgSqlReader(() => db));
  }

  /** The newest resourceVersion in the log (0 when it is empty). */
  async head(): Promise<number> {
    const { rows } = await this.db.query<{ head: number }>('SELECT coalesce(max(position), 0) AS head FROM events');
    return rows[0].head;
  }

  /** What tells the write at `position` from any other (none: no row there), to notice a log that was rewound. */
  async markAt(position: number): Promise<string | undefined> {
    const { rows } = await this.db.query<{ mark: string }>("SELECT concat_ws(' ', stream_id, stream_version, recorded_at, request_id) AS mark FROM events WHERE position = $1", [position]);
    return rows[0]?.mark;
  }

  /** The oldest resourceVersion a reader can start after (the log's first position - 1). */
  async oldestResumable(): Promise<number> {
    const { rows } = await this.db.query<{ first: number | null }>('SELECT min(position) AS first FROM events');
    return rows[0].first === null ? 0 : rows[0].first - 1;
  }

  /** Up to `limit` whole writes after `resourceVersion`, oldest first. */
  async writesAfter(resourceVersion: number, limit: number): Promise<CommittedWritesPage> {
    // A write's events share its resourceVersion; events of one write are rarely more than a few.
    for (let rowLimit = limit * 4 + 8; ; rowLimit *= 2) {
      const rows = await this.texts.resolve((await this.db.query<WriteRow>(WRITES_AFTER, [resourceVersion, rowLimit])).rows);
      const groups = groupByWrite(rows);
      const truncated = rows.length === rowLimit;
      // The last group of a full page may miss events of its write: it is read again next time.
      if (truncated) groups.pop();
      if (truncated && groups.length === 0) continue;
      const writes = groups.slice(0, limit).map(committedWrite);
      return { writes, complete: !truncated && groups.length <= limit };
    }
  }
}

function groupByWrite(rows: WriteRow[]): WriteRow[][] {
  const groups: WriteRow[][] = [];
  for (const row of rows) {
    const last = groups[groups.length - 1];
    if (last && last[0].resourceVersion === row.resourceVersion) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

function committedWrite(rows: WriteRow[]): LoggedWrite {
  const recorded = rows.map(storedToRecorded);
  const first = recorded[0];
  if (isEventRecord(first)) {
    // An Event's write is one fact; the state before it is its previous fact's (the live state keeps no history).
    const row = rows[0];
    // (A fact before another is a creation or an update: one that ended the Event has no successor.)
    const previous =
      row.previous_fact === null ? undefined : ({ type: 'KubeEventUpdated', data: JSON.parse(eventDataText({ plainData: row.previous_fact, packedData: row.previous_packed_fact })) } as KubeEventFact);
    const before = previous ? { ...evolveKubeEvent(initialKubeEventState, previous, Number(row.previous_position)), streamVersion: first.streamVersion - 1 } : initialKubeEventState;
    const write = foldEventWrite(before, first);
    const last = rows[0];
    if (last.observed_via === null) return write;
    return { ...write, observation: { sourceResourceVersion: last.observed_source_rv!, via: last.observed_via, observedAt: last.observed_at! } };
  }
  const events = recorded as RecordedEvent[];
  const created = events.some((e) => e.event.type === 'ServiceCreated');
  const previous = created || rows[0].previous === null ? null : (JSON.parse(decodeStoredText(rows[0].previous)) as Service);
  const before = { object: previous, streamVersion: events[0].streamVersion - 1, deleted: false };
  const last = rows[rows.length - 1];
  const write = foldWrite(before, events, last.current === null ? undefined : (JSON.parse(decodeStoredText(last.current)) as Service));
  if (last.observed_via === null) return write;
  return { ...write, observation: { sourceResourceVersion: last.observed_source_rv!, via: last.observed_via, observedAt: last.observed_at! } };
}
