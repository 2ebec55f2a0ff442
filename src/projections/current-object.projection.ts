// The live object per (namespace, name), stored exactly as GET serves it.
import type { DatabaseHandle } from '../store/database';
import type { Projection } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';

export class CurrentObjectProjection implements Projection {
  readonly name = 'current-object';
  readonly presentOnly = true;
  readonly tables = ['services'];
  private readonly insert;
  private readonly update;
  private readonly remove;

  constructor(handle: DatabaseHandle) {
    this.insert = handle.sqlite.prepare(
      `INSERT INTO services (namespace, name, uid, resource_version, stream_version, object)
       VALUES (@namespace, @name, @uid, @resourceVersion, @streamVersion, @object)`,
    );
    // An update keeps the uid (a new incarnation is a delete, then an insert): leaving it out of
    // SET spares the uid index a rewrite on every write.
    this.update = handle.sqlite.prepare(
      `UPDATE services SET resource_version = @resourceVersion, stream_version = @streamVersion, object = @object
       WHERE namespace = @namespace AND name = @name`,
    );
    this.remove = handle.sqlite.prepare('DELETE FROM services WHERE uid = ?');
  }

  apply(write: CommittedWrite): void {
    const object = write.after.object;
    if (!object) {
      this.remove.run(write.streamId);
      return;
    }
    const row = {
      namespace: write.namespace,
      name: write.name,
      resourceVersion: write.resourceVersion,
      streamVersion: write.after.streamVersion,
      object: write.objectJson ?? JSON.stringify(object),
    };
    if (write.before.object) this.update.run(row);
    else this.insert.run({ ...row, uid: write.streamId });
  }
}
