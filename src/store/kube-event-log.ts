// Reads the event log as core/v1 Events: filtered by namespace and involved object, in log
// order, consistent up to a snapshot position.
import type { DatabaseHandle } from './database';
import { toRecorded } from './event-store';
import type { RecordedEvent } from './ports/recorded-event';
import { events } from './schema';

export interface KubeEventQuery {
  namespace?: string;
  /** involvedObject.name / uid when a field selector pins them (index lookups). */
  name?: string;
  uid?: string;
  afterPosition: number;
  /** Snapshot: nothing after this position. */
  untilPosition: number;
  limit: number;
}

type EventRow = typeof events.$inferSelect;

const COLUMNS = `position, resource_version AS resourceVersion, stream_id AS streamId, stream_version AS streamVersion, namespace, name, type, data,
  recorded_at AS recordedAt, actor_user AS actorUser, actor_groups AS actorGroups, user_agent AS userAgent, field_manager AS fieldManager,
  request_id AS requestId, verb, subresource`;

/** The event log as core/v1 Events (either engine). */
export interface KubeEvents {
  /** The newest position in the log (the current global resourceVersion). */
  head(): Promise<number>;
  page(query: KubeEventQuery): Promise<RecordedEvent[]>;
  at(position: number): Promise<RecordedEvent | undefined>;
  /** Events of whole writes after a resourceVersion (a page never splits a write). */
  writesAfter(resourceVersion: number, limit: number): Promise<{ events: RecordedEvent[]; complete: boolean }>;
}

/** DI token of the engine's KubeEvents. */
export const KUBE_EVENTS = Symbol('KUBE_EVENTS');

export class KubeEventLog implements KubeEvents {
  private readonly byPosition;
  private readonly maxPosition;

  constructor(private readonly handle: DatabaseHandle) {
    this.byPosition = handle.sqlite.prepare(`SELECT ${COLUMNS} FROM events WHERE position = ?`);
    this.maxPosition = handle.sqlite.prepare('SELECT coalesce(max(position), 0) FROM events').pluck();
  }

  /** The newest position in the log (the current global resourceVersion). */
  async head(): Promise<number> {
    return this.maxPosition.get() as number;
  }

  async page(query: KubeEventQuery): Promise<RecordedEvent[]> {
    const where = ['position > @afterPosition', 'position <= @untilPosition'];
    if (query.namespace !== undefined) where.push('namespace = @namespace');
    if (query.name !== undefined) where.push('name = @name');
    if (query.uid !== undefined) where.push('stream_id = @uid');
    const rows = this.handle.statement(`SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT @limit`).all(query) as EventRow[];
    return rows.map(toRecorded);
  }

  async at(position: number): Promise<RecordedEvent | undefined> {
    const row = this.byPosition.get(position) as EventRow | undefined;
    return row ? toRecorded(row) : undefined;
  }

  /** Events of whole writes after a resourceVersion (a page never splits a write). */
  async writesAfter(resourceVersion: number, limit: number): Promise<{ events: RecordedEvent[]; complete: boolean }> {
    return wholeWrites(await this.page({ afterPosition: resourceVersion, untilPosition: Number.MAX_SAFE_INTEGER, limit }), limit);
  }
}

/**
 * A page of events read with `limit` cut back to whole writes: a full page may end inside a write,
 * whose events the next page reads again (unless the page holds nothing but that write).
 */
export function wholeWrites(page: RecordedEvent[], limit: number): { events: RecordedEvent[]; complete: boolean } {
  if (page.length < limit) return { events: page, complete: true };
  const last = page[page.length - 1].resourceVersion;
  const whole = page.filter((e) => e.resourceVersion !== last);
  return { events: whole.length ? whole : page, complete: false };
}
