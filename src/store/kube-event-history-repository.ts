// Reads the writes of Events for the Events history: a range of kube_event_occurrences in
// resourceVersion order, driven by the index of its scope (named on SQLite; PostgreSQL's planner
// finds the same one), each joined to its log row (position = resourceVersion: a primary-key
// lookup), which holds the Event as written and who wrote it. One implementation for both engines.
import { RepeatedTextCache } from './repeated-text-cache';
import { eventColumns, eventRowOf, type EventRow, type StoredEventRow } from './sql/event-columns';
import { SqlParams, type SqlReader } from './sql/sql-reader';
import type { KubeEventHistory, OccurrenceRange } from './ports/kube-event-history';

export class KubeEventHistoryRepository implements KubeEventHistory {
  private readonly texts: RepeatedTextCache;

  constructor(private readonly db: SqlReader) {
    this.texts = new RepeatedTextCache(db);
  }

  /** One page of occurrences: its SQL and values. */
  rangeQuery(range: OccurrenceRange, limit: number): { sql: string; values: unknown[] } {
    const p = new SqlParams();
    const where = [`o.resource_version >= ${p.param(range.fromRv)}`, `o.resource_version <= ${p.param(range.toRv)}`];
    // The involved object's index holds no kind (Events about a Pod and a Service of one name
    // share its range): the kind is checked on the rows of the range.
    let index = '';
    if (range.involved !== undefined) {
      index = 'kube_event_occurrences_involved';
      where.push(`o.involved_namespace = ${p.param(range.involved.namespace)}`, `o.involved_name = ${p.param(range.involved.name)}`, `o.involved_kind = ${p.param(range.involved.kind)}`);
    } else if (range.namespace !== undefined) index = 'kube_event_occurrences_namespace';
    if (range.namespace !== undefined) where.push(`o.namespace = ${p.param(range.namespace)}`);
    if (range.involvedUid !== undefined) where.push(`o.involved_uid = ${p.param(range.involvedUid)}`);
    if (range.type !== undefined) where.push(`o.type = ${p.param(range.type)}`);
    if (range.reason !== undefined) where.push(`o.reason = ${p.param(range.reason)}`);
    if (range.reportingController !== undefined) where.push(`o.reporting_controller = ${p.param(range.reportingController)}`);
    const from = `kube_event_occurrences o${index ? this.db.dialect.indexedBy(index) : ''}`;
    const sql = `SELECT ${eventColumns('e')} FROM ${from} JOIN events e ON e.position = o.resource_version
      WHERE ${where.join(' AND ')} ORDER BY o.resource_version LIMIT ${p.param(limit)}`;
    return { sql, values: p.values };
  }

  async occurrences(range: OccurrenceRange, limit: number): Promise<EventRow[]> {
    const { sql, values } = this.rangeQuery(range, limit);
    return (await this.texts.resolve(await this.db.all<StoredEventRow>(sql, values))).map(eventRowOf);
  }
}
