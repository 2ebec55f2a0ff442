// Reads of the Service projections: the live object, snapshots as of a resourceVersion, and the
// allocation table. Every query is an index lookup or an ordered range scan.
import type { ServiceState } from '../domain/service.evolve';
import { initialServiceState } from '../domain/service.evolve';
import type { Service } from '../domain/service.types';
import type { DatabaseHandle } from './database';
import { LogPositions } from './log-positions';

export interface ListPageRequest {
  namespace?: string;
  /** Start strictly after this (namespace, name). */
  after?: { namespace: string; name: string };
  /** Read the snapshot as of this resourceVersion; omitted = the live table. */
  asOf?: number;
  limit: number;
}

export interface ServiceRow {
  namespace: string;
  name: string;
  /** The stored JSON, as GET serves it. */
  json: string;
}

/**
 * The incarnations alive at @asOf (created at or before it, not deleted by then), in name order.
 * There are as many lifetimes as Services ever created, whatever the number of their writes.
 */
const LIVE_AS_OF = `service_lifetimes l INDEXED BY service_lifetimes_name
  WHERE l.created_resource_version <= @asOf AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > @asOf)`;

/** The revision of lifetime `l` current at @asOf: its newest at or before it (a primary-key seek). */
const REVISION_AS_OF = `(SELECT r.object FROM service_revisions r
  WHERE r.uid = l.uid AND r.resource_version <= @asOf ORDER BY r.resource_version DESC LIMIT 1)`;

export class ServiceRepository {
  private readonly byName;
  private readonly liveJson;
  private readonly clusterIP;
  private readonly nodePort;
  private readonly revisionAsOf;
  private readonly positions;

  constructor(private readonly handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.byName = sqlite.prepare('SELECT object, stream_version AS streamVersion FROM services WHERE namespace = ? AND name = ?');
    this.liveJson = sqlite.prepare('SELECT object FROM services WHERE namespace = ? AND name = ?').pluck();
    this.clusterIP = sqlite.prepare(`SELECT uid FROM allocations WHERE kind = 'cluster-ip' AND value = ?`).pluck();
    this.nodePort = sqlite.prepare(`SELECT uid FROM allocations WHERE kind = 'node-port' AND value = ?`).pluck();
    this.positions = new LogPositions(sqlite);
    this.revisionAsOf = sqlite.prepare(`SELECT ${REVISION_AS_OF} AS object FROM ${LIVE_AS_OF} AND l.namespace = @namespace AND l.name = @name`).pluck();
  }

  /** The newest log position recorded at or before an RFC 3339 time (0 before the first write). */
  resourceVersionAt(time: string): number {
    return this.positions.lastPositionAtOrBefore(time);
  }

  /** The live incarnation's state, loaded from the current-object projection (never by a fold). */
  loadLive(namespace: string, name: string): ServiceState & { uid?: string } {
    const row = this.byName.get(namespace, name) as { object: string; streamVersion: number } | undefined;
    if (!row) return initialServiceState;
    const object = JSON.parse(row.object) as Service;
    return { object, streamVersion: row.streamVersion, deleted: false, uid: object.metadata.uid };
  }

  /** The live object's stored JSON, exactly as GET serves it. */
  getLiveJson(namespace: string, name: string): string | undefined {
    return this.liveJson.get(namespace, name) as string | undefined;
  }

  /** The stored JSON of the revision current at `resourceVersion`, if the name existed then. */
  getJsonAsOf(namespace: string, name: string, resourceVersion: number): string | undefined {
    return (this.revisionAsOf.get({ namespace, name, asOf: resourceVersion }) as string | null | undefined) ?? undefined;
  }

  getAsOf(namespace: string, name: string, resourceVersion: number): Service | null {
    const json = this.getJsonAsOf(namespace, name, resourceVersion);
    return json ? (JSON.parse(json) as Service) : null;
  }

  /** The uid holding a cluster IP, if any. */
  clusterIPHolder(ip: string): string | undefined {
    return this.clusterIP.get(ip) as string | undefined;
  }

  nodePortHolder(port: number): string | undefined {
    return this.nodePort.get(String(port)) as string | undefined;
  }

  /** One page in (namespace, name) order. */
  listPage(request: ListPageRequest): ServiceRow[] {
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

  /** Runs reads in one transaction so they see a single snapshot. */
  snapshot<T>(fn: () => T): T {
    return this.handle.sqlite.transaction(fn).deferred();
  }
}
