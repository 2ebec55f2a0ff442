// Every revision of every Service and the lifetime of each incarnation (as ServiceRevisionsProjection),
// each revision with the write's JSON patch from the previous one, computed by the same function
// from the same stored text, so both engines store the same patch byte for byte.
import { jsonPatchText } from '../../../history/json-patch-diff';
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
    const json = write.objectJson ?? JSON.stringify(object);
    // The revision this write supersedes, as stored (none before a create).
    let previous: string | null = null;
    if (write.before.object) {
      const { rows } = await client.query<{ object: string }>(
        'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version < $2 ORDER BY resource_version DESC LIMIT 1',
        [write.streamId, write.resourceVersion],
      );
      previous = rows[0]?.object ?? null;
    }
    await client.query(
      'INSERT INTO service_revisions (uid, resource_version, namespace, name, recorded_at, object, patch) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [write.streamId, write.resourceVersion, write.namespace, write.name, write.metadata.recordedAt, json, jsonPatchText(previous, json)],
    );
  }
}
