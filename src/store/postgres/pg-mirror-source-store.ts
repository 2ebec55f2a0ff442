// The PostgreSQL engine's mirror tables (see sqlite-mirror-source-store.ts). The record*
// functions run on the write's own transaction, under the append lock, beside the write.
import type { Pool } from 'pg';
import { MirrorSourceMismatchError, ResumePointMovedError } from '../ports/mirror-source-store';
import type { MirrorSource, MirrorSourceStore, ResumePoint, WriteObservation } from '../ports/mirror-source-store';
import type { Queryable } from './postgres-database';

interface SourceRow {
  cluster_uid: string;
  server: string;
  resource_version: string | null;
}

export class PgMirrorSourceStore implements MirrorSourceStore {
  constructor(private readonly pool: Pool) {}

  async load(): Promise<MirrorSource | null> {
    const { rows } = await this.pool.query<SourceRow>('SELECT cluster_uid, server, resource_version FROM mirror_source WHERE id = 1');
    const row = rows[0];
    return row ? { clusterUid: row.cluster_uid, server: row.server, resourceVersion: row.resource_version } : null;
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

  async observations(resourceVersions: readonly number[]): Promise<Map<number, WriteObservation>> {
    const out = new Map<number, WriteObservation>();
    if (!resourceVersions.length) return out;
    const { rows } = await this.pool.query<{ resource_version: number; source_resource_version: string; via: WriteObservation['via']; observed_at: string }>(
      'SELECT resource_version, source_resource_version, via, observed_at FROM observed_writes WHERE resource_version = ANY($1)',
      [resourceVersions],
    );
    for (const row of rows) out.set(Number(row.resource_version), { sourceResourceVersion: row.source_resource_version, via: row.via, observedAt: row.observed_at });
    return out;
  }
}

/** On the write's transaction: the write at `resourceVersion` came from the source as `observation` says. */
export async function recordObservation(client: Queryable, resourceVersion: number, observation: WriteObservation): Promise<void> {
  await client.query('INSERT INTO observed_writes (resource_version, source_resource_version, via, observed_at) VALUES ($1, $2, $3, $4)', [
    resourceVersion,
    observation.sourceResourceVersion,
    observation.via,
    observation.observedAt,
  ]);
}

/** On the write's transaction: resume from `point` once it commits. */
export async function recordResumePoint(client: Queryable, point: ResumePoint, now: Date): Promise<void> {
  // Under the append lock: no other write moves it between this read and the update.
  const { rows } = await client.query<{ resource_version: string | null }>('SELECT resource_version FROM mirror_source WHERE id = 1');
  const stored = rows.length ? rows[0].resource_version : null;
  if (!rows.length || stored !== point.after) throw new ResumePointMovedError(point.after, stored);
  await client.query('UPDATE mirror_source SET resource_version = $1, updated_at = $2 WHERE id = 1', [point.resourceVersion, now.toISOString()]);
}
