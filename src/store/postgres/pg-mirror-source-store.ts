// The PostgreSQL engine's mirror tables (see sqlite-mirror-source-store.ts). A write's observation
// and resume point are recorded by the append function itself (pg-service-write-store.ts), beside the write.
import { repeatedText } from '../sql/event-columns';
import type { Pool } from 'pg';
import { MirrorSourceMismatchError } from '../ports/mirror-source-store';
import type { MirrorSource, MirrorSourceStore, ObservedWrite, WriteObservation } from '../ports/mirror-source-store';

interface SourceRow {
  cluster_uid: string;
  server: string;
  resource_version: string | null;
  events_resource_version: string | null;
}

export class PgMirrorSourceStore implements MirrorSourceStore {
  constructor(private readonly pool: Pool) {}

  async load(): Promise<MirrorSource | null> {
    const { rows } = await this.pool.query<SourceRow>('SELECT cluster_uid, server, resource_version, events_resource_version FROM mirror_source WHERE id = 1');
    const row = rows[0];
    return row ? { clusterUid: row.cluster_uid, server: row.server, resourceVersion: row.resource_version, eventsResourceVersion: row.events_resource_version } : null;
  }

  async claim(clusterUid: string, server: string, now: Date): Promise<MirrorSource> {
    await this.pool.query('INSERT INTO mirror_source (id, cluster_uid, server, resource_version, updated_at) VALUES (1, $1, $2, NULL, $3) ON CONFLICT (id) DO NOTHING', [
      clusterUid,
      server,
      now.toISOString(),
    ]);
    const stored = (await this.load())!;
    if (stored.clusterUid !== clusterUid) throw new MirrorSourceMismatchError(stored, clusterUid, server);
    return stored;
  }

  async observations(resourceVersions: readonly number[]): Promise<Map<number, ObservedWrite>> {
    const out = new Map<number, ObservedWrite>();
    if (!resourceVersions.length) return out;
    const { rows } = await this.pool.query<{ resource_version: number; source_resource_version: string; via: WriteObservation['via']; observed_at: string; field_manager: string }>(
      `SELECT o.resource_version, o.source_resource_version, o.via, o.observed_at, ${repeatedText('field_manager', 'e')} AS field_manager FROM observed_writes o JOIN events e ON e.position = o.resource_version
        WHERE o.resource_version = ANY($1)`,
      [resourceVersions],
    );
    for (const row of rows) {
      out.set(Number(row.resource_version), { sourceResourceVersion: row.source_resource_version, via: row.via, observedAt: row.observed_at, fieldManager: row.field_manager });
    }
    return out;
  }
}
