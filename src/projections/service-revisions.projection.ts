// Every revision of every Service, appended as it is written, and the lifetime of each
// incarnation: "the object as of R" is one seek of the revisions' primary key, a LIST as of R
// walks the lifetimes of a namespace. Nothing already written is rewritten: a write that
// supersedes a revision adds a row and touches no other.
import type { DatabaseHandle } from '../store/database';
import type { CommittedWrite, Projection } from './projection';

export class ServiceRevisionsProjection implements Projection {
  readonly name = 'service-revisions';
  readonly tables = ['service_revisions', 'service_lifetimes'];
  private readonly insert;
  private readonly born;
  private readonly died;

  constructor(handle: DatabaseHandle) {
    this.insert = handle.sqlite.prepare(
      `INSERT INTO service_revisions (uid, resource_version, namespace, name, recorded_at, object)
       VALUES (@uid, @resourceVersion, @namespace, @name, @recordedAt, @object)`,
    );
    this.born = handle.sqlite.prepare(
      `INSERT INTO service_lifetimes (uid, namespace, name, created_resource_version) VALUES (@uid, @namespace, @name, @resourceVersion)`,
    );
    this.died = handle.sqlite.prepare('UPDATE service_lifetimes SET deleted_resource_version = @resourceVersion WHERE uid = @uid');
  }

  apply(write: CommittedWrite): void {
    const at = { uid: write.streamId, namespace: write.namespace, name: write.name, resourceVersion: write.resourceVersion };
    if (!write.before.object) this.born.run(at);
    const object = write.after.object;
    if (!object) {
      this.died.run(at);
      return;
    }
    this.insert.run({ ...at, recordedAt: write.metadata.recordedAt, object: write.objectJson ?? JSON.stringify(object) });
  }
}
