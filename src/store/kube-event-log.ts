// The core/v1 Events API's reads on either engine's SQL reader: the Services' log rows the derived
// Events come from, and the Events controllers wrote (the live table, and their facts in the log
// for a page as of an earlier snapshot).
import { endsKubeEvent, type KubeEventFact } from '../domain/kube-event/kube-event.facts';
import { servedKubeEvent } from '../domain/kube-event/kube-event.evolve';
import { storedToRecorded } from './event-store';
import { RepeatedTextCache } from './repeated-text-cache';
import { isEventRecord, type LoggedEvent, type RecordedEvent } from './ports/recorded-event';
import { eventColumns, type StoredEventRow } from './sql/event-columns';
import { eventRowsOnly, serviceRowsOnly } from './sql/log-stream-kinds';
import { SqlParams, type SqlReader } from './sql/sql-reader';
import type { ExpiredKubeEvent, KubeEventQuery, KubeEvents, WrittenEventsQuery, WrittenKubeEvent } from './ports/kube-events';

const AT = `SELECT ${eventColumns()} FROM events WHERE position = $1`;
const HEAD = 'SELECT coalesce(max(position), 0) AS head FROM events';
const WRITTEN = 'SELECT object FROM kube_events WHERE namespace = $1 AND name = $2';
const FACT_AT = `SELECT ${eventColumns()} FROM events WHERE stream_id = $1 AND stream_version = $2`;
const EXPIRED = `SELECT namespace, name, resource_version AS "resourceVersion" FROM kube_events
  WHERE expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2`;
// Pages of the live Events' names by their primary key.
const LIVE_NAMES = 'SELECT namespace, name FROM kube_events ORDER BY namespace, name LIMIT $1';
const LIVE_NAMES_AFTER = 'SELECT namespace, name FROM kube_events WHERE (namespace, name) > ($1, $2) ORDER BY namespace, name LIMIT $3';
/** Writes since a snapshot that a page as of it still reconstructs; past this it is too old (410). */
const MAX_WRITES_SINCE = 10_000;
const WRITES_SINCE = `SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE position > $1 LIMIT ${MAX_WRITES_SINCE + 1}) s`;
/**
 * Of each Event written since a snapshot ($1), its last fact up to it, when after $2 (none for an
 * Event created since): one statement, where a fact read per Event cost PostgreSQL a round trip each.
 */
const FACTS_OF_EVENTS_WRITTEN_SINCE = `SELECT ${eventColumns('p')} FROM
  (SELECT stream_id, min(stream_version) AS first_after FROM events WHERE position > $1 AND ${eventRowsOnly()} GROUP BY stream_id) s
  JOIN events p ON p.stream_id = s.stream_id AND p.stream_version = s.first_after - 1
  WHERE p.position > $2`;

/** The Events API's reads, on either engine's SQL reader. */
export class KubeEventLog implements KubeEvents {
  private readonly texts: RepeatedTextCache;

  constructor(private readonly db: SqlReader) {
    this.texts = new RepeatedTextCache(db);
  }

  private async rows(sql: string, params: unknown[]): Promise<StoredEventRow[]> {
    return this.texts.resolve(await this.db.all<StoredEventRow>(sql, params));
  }

  async head(): Promise<number> {
    return (await this.db.one<{ head: number }>(HEAD))!.head;
  }

  async page(query: KubeEventQuery): Promise<RecordedEvent[]> {
    const p = new SqlParams();
    const where = [`position > ${p.param(query.afterPosition)}`, `position <= ${p.param(query.untilPosition)}`, serviceRowsOnly()];
    if (query.namespace !== undefined) where.push(`namespace = ${p.param(query.namespace)}`);
    if (query.name !== undefined) where.push(`name = ${p.param(query.name)}`);
    if (query.uid !== undefined) where.push(`stream_id = ${p.param(query.uid)}`);
    const sql = `SELECT ${eventColumns()} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ${p.param(query.limit)}`;
    return (await this.rows(sql, p.values)).map(storedToRecorded) as RecordedEvent[];
  }

  async at(position: number): Promise<LoggedEvent | undefined> {
    const [row] = await this.rows(AT, [position]);
    return row ? storedToRecorded(row) : undefined;
  }

  async writesAfter(resourceVersion: number, limit: number): Promise<{ events: LoggedEvent[]; complete: boolean }> {
    const sql = `SELECT ${eventColumns()} FROM events WHERE position > $1 ORDER BY position LIMIT $2`;
    return wholeWrites((await this.rows(sql, [resourceVersion, limit])).map(storedToRecorded), limit);
  }

  async written(namespace: string, name: string): Promise<string | undefined> {
    return (await this.db.one<{ object: string }>(WRITTEN, [namespace, name]))?.object;
  }

  async writtenPage(query: WrittenEventsQuery): Promise<WrittenKubeEvent[] | null> {
    const { afterPosition, untilPosition, limit } = query;
    // Live Events not written since the snapshot are as they were then.
    const p = new SqlParams(afterPosition, untilPosition);
    const namespace = query.namespace === undefined ? '' : ` AND namespace = ${p.param(query.namespace)}`;
    const index = query.namespace === undefined ? 'kube_events_resource_version' : 'kube_events_namespace_resource_version';
    const live = await this.db.all<{ position: number; json: string; uid: string }>(
      `SELECT resource_version AS position, object AS json, uid FROM kube_events${this.db.dialect.indexedBy(index)}
       WHERE resource_version > $1 AND resource_version <= $2${namespace} ORDER BY resource_version LIMIT ${p.param(limit)}`,
      p.values,
    );
    const unchanged: WrittenKubeEvent[] = live.map(({ position, json }) => ({ position, json }));
    const since = (await this.db.one<{ n: number }>(WRITES_SINCE, [untilPosition]))!.n;
    if (since === 0) return unchanged;
    if (since > MAX_WRITES_SINCE) return null;
    // Those written since (changed, ended or created): each as its last fact at the snapshot left it.
    // An Event read above as unchanged may have been written since that read (each query sees its
    // own moment on PostgreSQL): it is there already, as it was at the snapshot.
    const read = new Set(live.map((e) => e.uid));
    const then: WrittenKubeEvent[] = [];
    for (const row of await this.rows(FACTS_OF_EVENTS_WRITTEN_SINCE, [untilPosition, afterPosition])) {
      const fact = storedToRecorded(row);
      if (read.has(fact.streamId) || !isEventRecord(fact) || endsKubeEvent(fact.event)) continue;
      if (query.namespace !== undefined && fact.namespace !== query.namespace) continue;
      then.push({ position: fact.position, json: JSON.stringify(servedKubeEvent(fact.event.data.object, fact.resourceVersion)) });
    }
    return [...unchanged, ...then].sort((a, b) => a.position - b.position).slice(0, limit);
  }

  async factBefore(streamId: string, streamVersion: number): Promise<RecordedEvent<KubeEventFact> | undefined> {
    if (streamVersion <= 1) return undefined;
    const [row] = await this.rows(FACT_AT, [streamId, streamVersion - 1]);
    const fact = row ? storedToRecorded(row) : undefined;
    return fact && isEventRecord(fact) ? fact : undefined;
  }

  async expired(now: string, limit: number): Promise<ExpiredKubeEvent[]> {
    return this.db.all<ExpiredKubeEvent>(EXPIRED, [now, limit]);
  }

  async liveNames(after: { namespace: string; name: string } | undefined, limit: number): Promise<{ namespace: string; name: string }[]> {
    if (!after) return this.db.all(LIVE_NAMES, [limit]);
    return this.db.all(LIVE_NAMES_AFTER, [after.namespace, after.name, limit]);
  }
}

/**
 * A page of events read with `limit` cut back to whole writes: a full page may end inside a write,
 * whose events the next page reads again (unless the page holds nothing but that write).
 */
export function wholeWrites<E extends LoggedEvent>(page: E[], limit: number): { events: E[]; complete: boolean } {
  if (page.length < limit) return { events: page, complete: true };
  const last = page[page.length - 1].resourceVersion;
  const whole = page.filter((e) => e.resourceVersion !== last);
  return { events: whole.length ? whole : page, complete: false };
}
