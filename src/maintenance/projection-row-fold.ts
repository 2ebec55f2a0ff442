// The projections' rows folded from the log in one pass, in memory, without a database: what
// the live projections (SQLite's and PostgreSQL's) leave in their tables after the same writes,
// decided by the same pure rules (foldWrite, eventTransitions, foldIngressIntervals, allocatedValues,
// jsonPatchText). PostgreSQL's import, verify and replay insert these rows in bulk instead of
// replaying the write path one statement per row.
//
// Rows that can no longer change (revisions, transitions, closed intervals, ended lifetimes) are
// handed out as soon as they are decided; the present (live objects, allocations, open
// intervals, live lifetimes) is held per live Service and handed out by `present()`, so a fold
// can go on with more writes (replay's catch-up) until then.
import { allocatedValues } from '../domain/allocation/service-allocation';
import { initialServiceState, type ServiceState } from '../domain/service.evolve';
import { jsonPatchText } from '../domain/json-patch-diff';
import { foldWrite } from '../projections/committed-write';
import { encodeRevisionObject, encodeRevisionPatch } from '../store/revision-texts';
import { eventTransitions, transitionRow } from '../projections/condition-audit.projection';
import { foldIngressIntervals, type IngressIntervalRow } from '../projections/ingress-interval-fold';
import type { CommittedWrite } from '../store/ports/committed-write';
import { isEventRecord, type LoggedEvent, type RecordedEvent } from '../store/ports/recorded-event';
import { initialKubeEventState, type KubeEventState } from '../domain/kube-event/kube-event.evolve';
import type { KubeEventFact } from '../domain/kube-event/kube-event.facts';
import { foldEventWrite } from '../projections/committed-event-write';
import { occurrenceRow } from '../projections/kube-event-occurrences.projection';
import { liveEventRow } from '../projections/live-kube-events.projection';

/** bytea: a stored text (store/stored-text-codec.ts), bytes on PostgreSQL, a BLOB (or older TEXT) on SQLite. */
export type ColumnType = 'bigint' | 'text' | 'bytea';

/** The projection tables and their columns, in the order rows list their values. */
export const PROJECTION_COLUMNS = {
  services: { namespace: 'text', name: 'text', uid: 'text', resource_version: 'bigint', stream_version: 'bigint', object: 'text' },
  service_revisions: { uid: 'text', resource_version: 'bigint', namespace: 'text', name: 'text', recorded_at: 'text', object: 'bytea' },
  // Filled by bringing the fold to the store's compaction horizon, never by the fold itself.
  revision_facts: { uid: 'text', resource_version: 'bigint', namespace: 'text', name: 'text', recorded_at: 'text', managed_fields: 'bytea', patch: 'bytea' },
  service_lifetimes: { uid: 'text', namespace: 'text', name: 'text', created_resource_version: 'bigint', deleted_resource_version: 'bigint' },
  condition_transitions: {
    id: 'bigint',
    resource_version: 'bigint',
    uid: 'text',
    namespace: 'text',
    name: 'text',
    condition_type: 'text',
    from_status: 'text',
    to_status: 'text',
    reason: 'text',
    message: 'text',
    observed_generation: 'bigint',
    last_transition_time: 'text',
    recorded_at: 'text',
    actor_user: 'text',
  },
  ingress_intervals: {
    id: 'bigint',
    address: 'text',
    address_type: 'text',
    uid: 'text',
    namespace: 'text',
    name: 'text',
    from_resource_version: 'bigint',
    from_time: 'text',
    set_by: 'text',
    to_resource_version: 'bigint',
    to_time: 'text',
    cleared_by: 'text',
  },
  allocations: { kind: 'text', value: 'text', uid: 'text' },
  kube_events: { namespace: 'text', name: 'text', uid: 'text', resource_version: 'bigint', stream_version: 'bigint', object: 'text', expires_at: 'text' },
  kube_event_occurrences: {
    resource_version: 'bigint',
    uid: 'text',
    namespace: 'text',
    name: 'text',
    involved_kind: 'text',
    involved_namespace: 'text',
    involved_name: 'text',
    involved_uid: 'text',
    type: 'text',
    reason: 'text',
    reporting_controller: 'text',
  },
} as const satisfies Record<string, Record<string, ColumnType>>;

export type ProjectionTable = keyof typeof PROJECTION_COLUMNS;
export const PROJECTION_TABLES = Object.keys(PROJECTION_COLUMNS) as ProjectionTable[];

export type Row = unknown[];

export interface RowFoldOptions {
  /** service_revisions has the stored RFC 6902 patch column (after the previous revision). */
  revisionPatches: boolean;
}

/** The columns rows of `table` carry under `options`. */
export function rowColumns(table: ProjectionTable, options: RowFoldOptions): [string, ColumnType][] {
  const columns = Object.entries(PROJECTION_COLUMNS[table]) as [string, ColumnType][];
  return table === 'service_revisions' && options.revisionPatches ? [...columns, ['patch', 'bytea']] : columns;
}

/** The columns of `table` that hold stored texts (compared decoded: one text has more than one encoding). */
export function storedTextColumns(table: string): string[] {
  const columns = (PROJECTION_COLUMNS as Record<string, Record<string, ColumnType>>)[table];
  if (!columns) return [];
  const out = Object.keys(columns).filter((c) => columns[c] === 'bytea');
  return table === 'service_revisions' ? [...out, 'patch'] : out;
}

interface LiveService {
  state: ServiceState;
  /** The JSON of its newest revision, as stored. */
  json: string;
  resourceVersion: number;
  namespace: string;
  name: string;
  lifetime: Row;
  openIntervals: IngressIntervalRow[];
}

export class ProjectionRowFold {
  /** Rows decided since the last `take()`, by table. */
  private rows = new Map<ProjectionTable, Row[]>();
  private readonly live = new Map<string, LiveService>();
  /** Live Events, by uid: their state and their live row. */
  private readonly liveEvents = new Map<string, { state: KubeEventState; resourceVersion: number; row: Row }>();
  /** The events of the write being read (they share one resourceVersion). */
  private pending: RecordedEvent[] = [];
  /** Streams written since the last `present()`. */
  private touched = new Set<string>();
  private lastTransitionId = 0;
  private lastIntervalId = 0;
  events = 0;
  writes = 0;
  /** The resourceVersion of the last whole write folded. */
  resourceVersion = 0;

  constructor(private readonly options: RowFoldOptions) {}

  /** The next event of the log, in position order. */
  add(event: LoggedEvent): void {
    if (this.pending.length && this.pending[0].resourceVersion !== event.resourceVersion) this.endWrite();
    this.events++;
    // An Event's write is its one fact.
    if (isEventRecord(event)) return this.applyEvent(event);
    this.pending.push(event as RecordedEvent);
  }

  /** The events added so far end with a whole write (the log was read up to a resourceVersion). */
  endWrite(): void {
    if (!this.pending.length) return;
    this.apply(this.pending);
    this.pending = [];
  }

  /** Rows decided so far (and forgets them). */
  take(): Map<ProjectionTable, Row[]> {
    const rows = this.rows;
    this.rows = new Map();
    return rows;
  }

  get pendingRows(): number {
    let n = 0;
    for (const rows of this.rows.values()) n += rows.length;
    return n;
  }

  /** The streams written since the last `present()` (whose present rows it would change). */
  get touchedStreams(): ReadonlySet<string> {
    return this.touched;
  }

  /**
   * The present: each live Service's object, allocations, lifetime and open ingress intervals,
   * in the order of their last write (after every write added so far); only those of `only`
   * when given (replay refreshes the streams its catch-up touched).
   */
  present(only?: ReadonlySet<string>): void {
    this.endWrite();
    this.touched = new Set();
    const live = [...this.live.entries()].filter(([uid]) => !only || only.has(uid)).sort(([, a], [, b]) => a.resourceVersion - b.resourceVersion);
    for (const [uid, s] of live) {
      this.emit('services', [s.namespace, s.name, uid, s.resourceVersion, s.state.streamVersion, s.json]);
      this.emit('service_lifetimes', s.lifetime);
      for (const interval of s.openIntervals) this.emit('ingress_intervals', interval);
      const held = allocatedValues(s.state.object!);
      for (const ip of held.clusterIPs) this.emit('allocations', ['cluster-ip', ip, uid]);
      for (const port of new Set(held.nodePorts)) this.emit('allocations', ['node-port', String(port), uid]);
    }
    const events = [...this.liveEvents.entries()].filter(([uid]) => !only || only.has(uid)).sort(([, a], [, b]) => a.resourceVersion - b.resourceVersion);
    for (const [, e] of events) this.emit('kube_events', e.row);
  }

  private applyEvent(recorded: RecordedEvent<KubeEventFact>): void {
    const uid = recorded.streamId;
    const write = foldEventWrite(this.liveEvents.get(uid)?.state ?? initialKubeEventState, recorded);
    this.touched.add(uid);
    this.emit('kube_event_occurrences', Object.values(occurrenceRow(write)));
    const live = liveEventRow(write);
    if (live) this.liveEvents.set(uid, { state: write.after, resourceVersion: write.resourceVersion, row: Object.values(live) });
    else this.liveEvents.delete(uid);
    this.writes++;
    this.resourceVersion = write.resourceVersion;
  }

  private emit(table: ProjectionTable, row: Row): void {
    let rows = this.rows.get(table);
    if (!rows) this.rows.set(table, (rows = []));
    rows.push(row);
  }

  private apply(events: RecordedEvent[]): void {
    const first = events[0];
    const uid = first.streamId;
    const previous = this.live.get(uid);
    this.touched.add(uid);
    const write = foldWrite(previous?.state ?? initialServiceState, events);
    const rv = write.resourceVersion;
    const { recordedAt } = write.metadata;
    const service: LiveService = previous ?? {
      state: write.after,
      json: '',
      resourceVersion: rv,
      namespace: write.namespace,
      name: write.name,
      lifetime: [uid, write.namespace, write.name, rv, null],
      openIntervals: [],
    };
    this.conditionRows(write);
    this.ingressRows(write, service);
    const object = write.after.object;
    if (!object || write.after.deleted) {
      service.lifetime[4] = rv;
      this.emit('service_lifetimes', service.lifetime);
      this.live.delete(uid);
    } else {
      const json = write.objectJson ?? JSON.stringify(object);
      const revision: Row = [uid, rv, write.namespace, write.name, recordedAt, encodeRevisionObject(json)];
      if (this.options.revisionPatches) revision.push(encodeRevisionPatch(jsonPatchText(write.before.object && previous ? previous.json : null, json)));
      this.emit('service_revisions', revision);
      Object.assign(service, { state: write.after, json, resourceVersion: rv });
      this.live.set(uid, service);
    }
    this.writes++;
    this.resourceVersion = rv;
  }

  private conditionRows(write: CommittedWrite): void {
    for (const { event } of write.events) {
      for (const t of eventTransitions(event)) this.emit('condition_transitions', [++this.lastTransitionId, ...Object.values(transitionRow(write, t))]);
    }
  }

  private ingressRows(write: CommittedWrite, service: LiveService): void {
    service.openIntervals = foldIngressIntervals(
      write,
      service.openIntervals,
      () => ++this.lastIntervalId,
      (row) => this.emit('ingress_intervals', row),
    );
  }
}
