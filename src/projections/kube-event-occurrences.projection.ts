// One row per Event write, kept forever: what the Events history filters by. The Event itself is
// the log's row at the same position.
import type { DatabaseHandle } from '../store/database';
import type { CommittedEventWrite } from '../store/ports/committed-event-write';
import type { Projection } from './projection';

export class KubeEventOccurrencesProjection implements Projection<CommittedEventWrite> {
  readonly name = 'kube-event-occurrences';
  readonly tables = ['kube_event_occurrences'];
  private readonly insert;

  constructor(handle: DatabaseHandle) {
    this.insert = handle.sqlite.prepare(
      `INSERT INTO kube_event_occurrences (resource_version, uid, namespace, name, involved_kind, involved_namespace, involved_name,
         involved_uid, type, reason, reporting_controller)
       VALUES (@resourceVersion, @uid, @namespace, @name, @involvedKind, @involvedNamespace, @involvedName, @involvedUid, @type, @reason, @reportingController)`,
    );
  }

  apply(write: CommittedEventWrite): void {
    this.insert.run(occurrenceRow(write));
  }
}

/** The occurrence row of an Event write (the object the fact holds: for an ending, the Event as it was). */
export function occurrenceRow(write: CommittedEventWrite) {
  const event = write.events[0].event.data.object;
  const involved = event.involvedObject ?? {};
  return {
    resourceVersion: write.resourceVersion,
    uid: write.streamId,
    namespace: write.namespace,
    name: write.name,
    involvedKind: involved.kind ?? '',
    involvedNamespace: involved.namespace ?? '',
    involvedName: involved.name ?? '',
    involvedUid: involved.uid ?? '',
    type: event.type ?? '',
    reason: event.reason ?? '',
    // As the history serves it: clients before 1.19 name themselves in source.component only.
    reportingController: event.reportingComponent || event.source?.component || '',
  };
}
