// The embedded engine's ServiceReadStore: Services and the log's positions (time and
// resourceVersion bounds). Each read is answered at once; the promises keep callers engine-neutral.
import type { DatabaseHandle } from './database';
import { LogPositions } from './log-positions';
import { ReadSnapshots } from './read-snapshots';
import type { ListPageRequest, ServiceReads, ServiceReadStore, ServiceRow } from './ports/service-read-store';

/**
 * The incarnations alive at @asOf (created at or before it, not deleted by then), in name order.
 * There are as many lifetimes as Services ever created, whatever the number of their writes.
 */
const LIVE_AS_OF = `service_lifetimes l INDEXED BY service_lifetimes_name
  WHERE l.created_resource_version <= @asOf AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > @asOf)`;

/** The revision of lifetime `l` current at @asOf: its newest at or before it (a primary-key seek). */
const REVISION_AS_OF = `(SELECT r.object FROM service_revisions r
  WHERE r.uid = l.uid AND r.resource_version <= @asOf ORDER BY r.resource_version DESC LIMIT 1)`;

export class SqliteServiceReadStore implements ServiceReadStore {
  private readonly live;
  private readonly revisionAsOf;
  private readonly positions;
  private readonly snapshots;

  constructor(private readonly handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.live = sqlite.prepare('SELECT object FROM services WHERE namespace = ? AND name = ?').pluck();
    this.revisionAsOf = sqlite.prepare(`SELECT ${REVISION_AS_OF} AS object FROM ${LIVE_AS_OF} AND l.namespace = @namespace AND l.name = @name`).pluck();
    this.positions = new LogPositions(sqlite);
    this.snapshots = new ReadSnapshots(sqlite);
  }

  async ready(): Promise<boolean> {
    try {
      return this.handle.sqlite.prepare('SELECT 1').pluck().get() === 1;
    } catch {
      return false;
    }
  }

  async head(): Promise<number> {
    return this.positions.head();
  }

  async resourceVersionAt(time: string): Promise<number> {
    return this.positions.lastPositionAtOrBefore(time);
  }

  async firstPositionAtOrAfter(time: string): Promise<number> {
    return this.positions.firstPositionAtOrAfter(time);
  }

  async writeStartAtOrAfter(resourceVersion: number): Promise<number> {
    return this.positions.writeStartAtOrAfter(resourceVersion);
  }

  async liveJson(namespace: string, name: string): Promise<string | undefined> {
    return this.live.get(namespace, name) as string | undefined;
  }

  async jsonAsOf(namespace: string, name: string, resourceVersion: number): Promise<string | undefined> {
    return (this.revisionAsOf.get({ namespace, name, asOf: resourceVersion }) as string | null | undefined) ?? undefined;
  }

  async listPage(request: ListPageRequest): Promise<ServiceRow[]> {
    const live = request.asOf === undefined;
    const column = (name: string) => (live ? name : `l.${name}`);
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: request.limit };
    if (request.namespace !== undefined) {
      where.push(`${column('namespace')} = @namespace`);
      params.namespace = request.namespace;
    }
    if (request.after) {
      where.push(`(${column('namespace')} > @afterNamespace OR (${column('namespace')} = @afterNamespace AND ${column('name')} > @afterName))`);
      params.afterNamespace = request.after.namespace;
      params.afterName = request.after.name;
    }
    let sql: string;
    if (live) {
      sql = `SELECT namespace, name, object AS json FROM services${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    } else {
      params.asOf = request.asOf;
      sql = `SELECT l.namespace, l.name, ${REVISION_AS_OF} AS json FROM ${LIVE_AS_OF}${where.map((w) => ` AND ${w}`).join('')}`;
    }
    sql += ` ORDER BY ${column('namespace')}, ${column('name')} LIMIT @limit`;
    return this.handle.statement(sql).all(params) as ServiceRow[];
  }

  inSnapshot<T>(reads: (snapshot: ServiceReads) => Promise<T>): Promise<T> {
    return this.snapshots.run(() => reads(this));
  }
}
