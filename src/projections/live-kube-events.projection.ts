// The live Events per (namespace, name), stored exactly as GET serves them, with the time their
// TTL lease runs out.
import type { DatabaseHandle } from '../store/database';
import type { CommittedEventWrite } from '../store/ports/committed-event-write';
import type { Projection } from './projection';

export class LiveKubeEventsProjection implements Projection<CommittedEventWrite> {
  readonly name = 'live-kube-events';
  readonly presentOnly = true;
  readonly tables = ['kube_events'];
  private readonly upsert;
  private readonly remove;

  constructor(handle: DatabaseHandle) {
    this.upsert = handle.sqlite.prepare(
      `INSERT INTO kube_events (namespace, name, uid, resource_version, stream_version, object, expires_at)
       VALUES (@namespace, @name, @uid, @resourceVersion, @streamVersion, @object, @expiresAt)
       ON CONFLICT (namespace, name) DO UPDATE SET uid = excluded.uid, resource_version = excluded.resource_version,
         stream_version = excluded.stream_version, object = excluded.object, expires_at = excluded.expires_at`,
    );
    this.remove = handle.sqlite.prepare('DELETE FROM kube_events WHERE namespace = ? AND name = ? AND uid = ?');
  }

  apply(write: CommittedEventWrite): void {
    const object = write.after.object;
    if (!object) {
      this.remove.run(write.namespace, write.name, write.streamId);
      return;
    }
    this.upsert.run({
      namespace: write.namespace,
      name: write.name,
      uid: write.streamId,
      resourceVersion: write.resourceVersion,
      streamVersion: write.after.streamVersion,
      object: write.objectJson ?? JSON.stringify(object),
      expiresAt: write.after.expiresAt ?? null,
    });
  }
}
