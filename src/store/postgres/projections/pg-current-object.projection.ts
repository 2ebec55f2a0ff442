// The live object per (namespace, name), stored exactly as GET serves it (as CurrentObjectProjection).
import type { CommittedWrite } from '../../../projections/projection';
import type { Queryable } from '../postgres-database';
import type { PgProjection } from './pg-projection';

export class PgCurrentObjectProjection implements PgProjection {
  readonly name = 'current-object';
  readonly tables = ['services'];

  async apply(client: Queryable, write: CommittedWrite): Promise<void> {
    const object = write.after.object;
    if (!object) {
      await client.query('DELETE FROM services WHERE uid = $1', [write.streamId]);
      return;
    }
    const json = write.objectJson ?? JSON.stringify(object);
    if (write.before.object) {
      await client.query('UPDATE services SET resource_version = $3, stream_version = $4, object = $5 WHERE namespace = $1 AND name = $2', [
        write.namespace,
        write.name,
        write.resourceVersion,
        write.after.streamVersion,
        json,
      ]);
    } else {
      await client.query('INSERT INTO services (namespace, name, uid, resource_version, stream_version, object) VALUES ($1, $2, $3, $4, $5, $6)', [
        write.namespace,
        write.name,
        write.streamId,
        write.resourceVersion,
        write.after.streamVersion,
        json,
      ]);
    }
  }
}
