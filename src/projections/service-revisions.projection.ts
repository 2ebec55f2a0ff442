// Every revision of every Service with the range of resourceVersions it was current for, so
// "the object as of R" is one index lookup and paginated LISTs read a consistent snapshot.
import type { DatabaseHandle } from '../store/database';
import type { CommittedWrite, Projection } from './projection';

export class ServiceRevisionsProjection implements Projection {
  readonly name = 'service-revisions';
  readonly tables = ['service_revisions'];
  private readonly close;
  private readonly insert;

  constructor(handle: DatabaseHandle) {
    this.close = handle.sqlite.prepare('UPDATE service_revisions SET valid_until = ? WHERE uid = ? AND valid_until IS NULL');
    this.insert = handle.sqlite.prepare(
      `INSERT INTO service_revisions (uid, resource_version, valid_until, namespace, name, recorded_at, object)
       VALUES (@uid, @resourceVersion, NULL, @namespace, @name, @recordedAt, @object)`,
    );
  }

  apply(write: CommittedWrite): void {
    this.close.run(write.resourceVersion, write.streamId);
    const object = write.after.object;
    if (!object) return;
    this.insert.run({
      uid: write.streamId,
      resourceVersion: write.resourceVersion,
      namespace: write.namespace,
      name: write.name,
      recordedAt: write.metadata.recordedAt,
      object: JSON.stringify(object),
    });
  }
}
