// Every revision of every Service, appended as it is written, and the lifetime of each
// incarnation: "the object as of R" is one seek of the revisions' primary key, a LIST as of R
// walks the lifetimes of a namespace. Nothing already written is rewritten: a write that
// supersedes a revision adds a row and touches no other. Each row also holds the write's JSON
// patch from the previous revision, computed here once: the change log serves it as stored. Both
// texts are stored encoded (store/revision-texts.ts).
import { jsonPatchText, jsonPatchTextOfObjects } from '../domain/json-patch-diff';
import type { DatabaseHandle } from '../store/database';
import { type RevisionTextForm, STORED_REVISION_TEXTS } from '../store/revision-texts';
import { decodeStoredText, type StoredText } from '../store/stored-text-codec';
import type { Projection } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';

export class ServiceRevisionsProjection implements Projection {
  readonly name = 'service-revisions';
  // revision_facts: written by compaction only (history-compaction.ts), rebuilt with these.
  readonly tables = ['service_revisions', 'revision_facts', 'service_lifetimes'];
  private readonly insert;
  private readonly born;
  private readonly died;
  private readonly previous;

  constructor(
    handle: DatabaseHandle,
    private readonly texts: RevisionTextForm = STORED_REVISION_TEXTS,
  ) {
    this.insert = handle.sqlite.prepare(
      `INSERT INTO service_revisions (uid, resource_version, namespace, name, recorded_at, object, patch)
       VALUES (@uid, @resourceVersion, @namespace, @name, @recordedAt, @object, @patch)`,
    );
    // The revision this write supersedes, as stored: the patch is computed from the same text
    // the change log used to diff on every read, so it is the same patch byte for byte.
    this.previous = handle.sqlite.prepare('SELECT object FROM service_revisions WHERE uid = ? AND resource_version < ? ORDER BY resource_version DESC LIMIT 1').pluck();
    this.born = handle.sqlite.prepare(`INSERT INTO service_lifetimes (uid, namespace, name, created_resource_version) VALUES (@uid, @namespace, @name, @resourceVersion)`);
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
    const json = write.objectJson ?? JSON.stringify(object);
    this.insert.run({ ...at, recordedAt: write.metadata.recordedAt, object: this.texts.object(json), patch: this.texts.patch(this.patch(write, object, json)) });
  }

  private patch(write: CommittedWrite, object: object, json: string): string {
    if (!write.before.object || write.beforeStored) return jsonPatchTextOfObjects(write.before.object, object, json);
    const previous = this.previous.get(write.streamId, write.resourceVersion) as StoredText | undefined;
    return jsonPatchText(previous === undefined ? null : decodeStoredText(previous), json);
  }
}
