// The live object per (namespace, name), stored exactly as GET serves it.
import type { DatabaseHandle } from '../store/database';
import type { CommittedWrite, Projection } from './projection';

export class CurrentObjectProjection implements Projection {
  readonly name = 'current-object';
  readonly tables = ['services'];
  private readonly upsert;
  private readonly remove;

  constructor(handle: DatabaseHandle) {
    this.upsert = handle.sqlite.prepare(
      `INSERT INTO services (namespace, name, uid, resource_version, stream_version, object)
       VALUES (@namespace, @name, @uid, @resourceVersion, @streamVersion, @object)
       ON CONFLICT (namespace, name) DO UPDATE SET uid = excluded.uid, resource_version = excluded.resource_version,
         stream_version = excluded.stream_version, object = excluded.object`,
    );
    this.remove = handle.sqlite.prepare('DELETE FROM services WHERE uid = ?');
  }

  apply(write: CommittedWrite): void {
    const object = write.after.object;
    if (!object) {
      this.remove.run(write.streamId);
      return;
    }
    this.upsert.run({
      namespace: write.namespace,
      name: write.name,
      uid: write.streamId,
      resourceVersion: write.resourceVersion,
      streamVersion: write.after.streamVersion,
      object: JSON.stringify(object),
    });
  }
}
