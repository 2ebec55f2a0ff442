// The embedded engine's mirror tables: the source this store records and its two resume points
// (mirror_source, one row), and where each recorded write came from (observed_writes). The two
// record* methods run inside the group commit's transaction, beside the write they belong to.
import { repeatedText } from './sql/event-columns';
import type { Statement } from 'better-sqlite3';
import type { DatabaseHandle } from './database';
import { MirrorSourceMismatchError, ResumePointMovedError } from './ports/mirror-source-store';
import type { MirroredResource, MirrorSource, MirrorSourceStore, ObservedWrite, ResumePoint, WriteObservation } from './ports/mirror-source-store';

interface SourceRow {
  cluster_uid: string;
  server: string;
  resource_version: string | null;
  events_resource_version: string | null;
}

export class SqliteMirrorSourceStore implements MirrorSourceStore {
  private readonly statements: Record<'load' | 'insertSource' | 'resume' | 'resumeEvents' | 'observe' | 'observation', Statement>;

  constructor(handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.statements = {
      load: sqlite.prepare('SELECT cluster_uid, server, resource_version, events_resource_version FROM mirror_source WHERE id = 1'),
      insertSource: sqlite.prepare('INSERT INTO mirror_source (id, cluster_uid, server, resource_version, updated_at) VALUES (1, ?, ?, NULL, ?) ON CONFLICT (id) DO NOTHING'),
      resume: sqlite.prepare('UPDATE mirror_source SET resource_version = ?, updated_at = ? WHERE id = 1'),
      resumeEvents: sqlite.prepare('UPDATE mirror_source SET events_resource_version = ?, updated_at = ? WHERE id = 1'),
      observe: sqlite.prepare('INSERT INTO observed_writes (resource_version, source_resource_version, via, observed_at) VALUES (?, ?, ?, ?)'),
      observation: sqlite.prepare(
        `SELECT o.source_resource_version, o.via, o.observed_at, ${repeatedText('field_manager', 'e')} AS field_manager FROM observed_writes o CROSS JOIN events e ON e.position = o.resource_version WHERE o.resource_version = ?`,
      ),
    };
  }

  load(): Promise<MirrorSource | null> {
    return Promise.resolve(this.loadNow());
  }

  claim(clusterUid: string, server: string, now: Date): Promise<MirrorSource> {
    this.statements.insertSource.run(clusterUid, server, now.toISOString());
    const stored = this.loadNow()!;
    if (stored.clusterUid !== clusterUid) return Promise.reject(new MirrorSourceMismatchError(stored, clusterUid, server));
    return Promise.resolve(stored);
  }

  observations(resourceVersions: readonly number[]): Promise<Map<number, ObservedWrite>> {
    const out = new Map<number, ObservedWrite>();
    for (const rv of resourceVersions) {
      const row = this.statements.observation.get(rv) as { source_resource_version: string; via: WriteObservation['via']; observed_at: string; field_manager: string } | undefined;
      if (row) out.set(rv, { sourceResourceVersion: row.source_resource_version, via: row.via, observedAt: row.observed_at, fieldManager: row.field_manager });
    }
    return Promise.resolve(out);
  }

  /** Inside a write transaction: the write at `resourceVersion` came from the source as `observation` says. */
  recordObservation(resourceVersion: number, observation: WriteObservation): void {
    this.statements.observe.run(resourceVersion, observation.sourceResourceVersion, observation.via, observation.observedAt);
  }

  /** Inside a write transaction: the `resource` watch resumes from `point` once it commits. */
  recordResumePoint(point: ResumePoint, now: Date, resource: MirroredResource = 'services'): void {
    const loaded = this.loadNow();
    const stored = loaded ? (resource === 'services' ? loaded.resourceVersion : loaded.eventsResourceVersion) : null;
    if (!loaded || stored !== point.after) throw new ResumePointMovedError(point.after, stored, resource);
    (resource === 'services' ? this.statements.resume : this.statements.resumeEvents).run(point.resourceVersion, now.toISOString());
  }

  private loadNow(): MirrorSource | null {
    const row = this.statements.load.get() as SourceRow | undefined;
    return row ? { clusterUid: row.cluster_uid, server: row.server, resourceVersion: row.resource_version, eventsResourceVersion: row.events_resource_version } : null;
  }
}
