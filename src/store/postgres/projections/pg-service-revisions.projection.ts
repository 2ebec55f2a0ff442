// Every revision of every Service and the lifetime of each incarnation (as ServiceRevisionsProjection).
import type { CommittedWrite } from '../../../projections/projection';
import type { Queryable } from '../postgres-database';
import type { PgProjection } from './pg-projection';

export class PgServiceRevisionsProjection implements PgProjection {
  readonly name = 'service-revisions';
  readonly tables = ['service_revisions', 'service_lifetimes'];

  async apply(client: Queryable, write: CommittedWrite): Promise<void> {
    if (!write.before.object) {
      await client.query('INSERT INTO service_lifetimes (uid, namespace, name, created_resource_version) VALUES ($1, $2, $3, $4)', [
        write.streamId,
        write.namespace,
        write.name,
        write.resourceVersion,
      ]);
    }
    const object = write.after.object;
    if (!object) {
      await client.query('UPDATE service_lifetimes SET deleted_resource_version = $2 WHERE uid = $1', [write.streamId, write.resourceVersion]);
      return;
    }
    await client.query('INSERT INTO service_revisions (uid, resource_version, namespace, name, recorded_at, object) VALUES ($1, $2, $3, $4, $5, $6)', [
      write.streamId,
      write.resourceVersion,
      write.namespace,
      write.name,
      write.metadata.recordedAt,
      write.objectJson ?? JSON.stringify(object),
    ]);
  }
}
