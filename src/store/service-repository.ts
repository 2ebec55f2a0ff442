// What a write reads inside the embedded engine's write transaction: the live state and the
// allocation table (GET, LIST and watch read through the ServiceReadStore port).
import type { ServiceState } from '../domain/service.evolve';
import { initialServiceState } from '../domain/service.evolve';
import type { Service } from '../domain/service.types';
import type { DatabaseHandle } from './database';

export class ServiceRepository {
  private readonly byName;
  private readonly clusterIP;
  private readonly nodePort;

  constructor(handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.byName = sqlite.prepare('SELECT object, stream_version AS streamVersion FROM services WHERE namespace = ? AND name = ?');
    this.clusterIP = sqlite.prepare(`SELECT uid FROM allocations WHERE kind = 'cluster-ip' AND value = ?`).pluck();
    this.nodePort = sqlite.prepare(`SELECT uid FROM allocations WHERE kind = 'node-port' AND value = ?`).pluck();
  }

  /** The live incarnation's state, loaded from the current-object projection (never by a fold). */
  loadLive(namespace: string, name: string): ServiceState & { uid?: string } {
    const row = this.byName.get(namespace, name) as { object: string; streamVersion: number } | undefined;
    if (!row) return initialServiceState;
    const object = JSON.parse(row.object) as Service;
    return { object, streamVersion: row.streamVersion, deleted: false, uid: object.metadata.uid };
  }

  /** The uid holding a cluster IP, if any. */
  clusterIPHolder(ip: string): string | undefined {
    return this.clusterIP.get(ip) as string | undefined;
  }

  nodePortHolder(port: number): string | undefined {
    return this.nodePort.get(String(port)) as string | undefined;
  }
}
