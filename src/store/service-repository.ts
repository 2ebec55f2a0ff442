// Reads of the Service projections: the live object, snapshots as of a resourceVersion, and the
// allocation table. Every query is an index lookup or an ordered range scan.
import type { ServiceState } from '../domain/service.evolve';
import { initialServiceState } from '../domain/service.evolve';
import type { Service } from '../domain/service.types';
import type { DatabaseHandle } from './database';

export interface ListPageRequest {
  namespace?: string;
  /** Start strictly after this (namespace, name). */
  after?: { namespace: string; name: string };
  /** Read the snapshot as of this resourceVersion; omitted = the live table. */
  asOf?: number;
  limit: number;
}

export interface StoredService {
  namespace: string;
  name: string;
  object: Service;
}

export class ServiceRepository {
  private readonly byName;
  private readonly clusterIP;
  private readonly nodePort;
  private readonly revisionAsOf;
  private readonly positionAtTime;

  constructor(private readonly handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.byName = sqlite.prepare('SELECT object, stream_version AS streamVersion FROM services WHERE namespace = ? AND name = ?');
    this.clusterIP = sqlite.prepare(`SELECT uid FROM allocations WHERE kind = 'cluster-ip' AND value = ?`).pluck();
    this.nodePort = sqlite.prepare(`SELECT uid FROM allocations WHERE kind = 'node-port' AND value = ?`).pluck();
    // recorded_at is ISO 8601 UTC with milliseconds, so text order is time order (index seek).
    this.positionAtTime = sqlite
      .prepare('SELECT position FROM events WHERE recorded_at <= ? ORDER BY recorded_at DESC, position DESC LIMIT 1')
      .pluck();
    this.revisionAsOf = sqlite.prepare(
      `SELECT object FROM service_revisions
       WHERE namespace = ? AND name = ? AND resource_version <= ? AND (valid_until IS NULL OR valid_until > ?)
       ORDER BY resource_version DESC LIMIT 1`,
    ).pluck();
  }

  /** The newest log position recorded at or before an RFC 3339 time (0 before the first write). */
  resourceVersionAt(time: string): number {
    return (this.positionAtTime.get(time) as number | undefined) ?? 0;
  }

  /** The live incarnation's state, loaded from the current-object projection (never by a fold). */
  loadLive(namespace: string, name: string): ServiceState & { uid?: string } {
    const row = this.byName.get(namespace, name) as { object: string; streamVersion: number } | undefined;
    if (!row) return initialServiceState;
    const object = JSON.parse(row.object) as Service;
    return { object, streamVersion: row.streamVersion, deleted: false, uid: object.metadata.uid };
  }

  getAsOf(namespace: string, name: string, resourceVersion: number): Service | null {
    const json = this.revisionAsOf.get(namespace, name, resourceVersion, resourceVersion) as string | undefined;
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
  listPage(request: ListPageRequest): StoredService[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: request.limit };
    if (request.namespace !== undefined) {
      where.push('namespace = @namespace');
      params.namespace = request.namespace;
    }
    if (request.after) {
      where.push('(namespace > @afterNamespace OR (namespace = @afterNamespace AND name > @afterName))');
      params.afterNamespace = request.after.namespace;
      params.afterName = request.after.name;
    }
    let sql: string;
    if (request.asOf === undefined) {
      sql = `SELECT namespace, name, object FROM services`;
    } else {
      where.push('resource_version <= @asOf AND (valid_until IS NULL OR valid_until > @asOf)');
      params.asOf = request.asOf;
      sql = `SELECT namespace, name, object FROM service_revisions`;
    }
    if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
    sql += ' ORDER BY namespace, name LIMIT @limit';
    const rows = this.handle.statement(sql).all(params) as { namespace: string; name: string; object: string }[];
    return rows.map((r) => ({ namespace: r.namespace, name: r.name, object: JSON.parse(r.object) as Service }));
  }

  /** Runs reads in one transaction so they see a single snapshot. */
  snapshot<T>(fn: () => T): T {
    return this.handle.sqlite.transaction(fn).deferred();
  }
}
