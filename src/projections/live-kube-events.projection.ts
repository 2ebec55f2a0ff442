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
    const row = liveEventRow(write);
    if (row) this.upsert.run(row);
    else this.remove.run(write.namespace, write.name, write.streamId);
  }
}

/**
 * The live row an Event write leaves, in the table's column order; undefined when the write ended
 * the Event (its row goes). Every engine and every fold stores this row.
 */
export function liveEventRow(write: CommittedEventWrite) {
  const object = write.after.object;
  if (!object) return undefined;
  return {
    namespace: write.namespace,
    name: write.name,
    uid: write.streamId,
    resourceVersion: write.resourceVersion,
    streamVersion: write.after.streamVersion,
    object: write.objectJson ?? JSON.stringify(object),
    expiresAt: write.after.expiresAt ?? null,
  };
}
