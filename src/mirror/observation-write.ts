// What recording one observation means, whichever store port takes it (Services', Events'): the
// write, run again once when the recorded incarnation was replaced at the source (the first write
// ends it, the second records the observed one); the change feed told after each commit; and the
// audit event that may have come first joined to each recorded change.
import type { CommitPublisher } from '../feed/commit-publisher';
import type { LoggedWrite } from '../store/ports/committed-event-write';
import type { AuditJoin } from './audit-join';
import type { Observation, RecordOutcome } from './observation';

/** One write of `namespace/name` through a store port: whether to write again, and what it committed. */
export type ObservationStoreWrite = (namespace: string, name: string) => Promise<{ result: { again: boolean }; committed?: LoggedWrite }>;

export async function writeObservation<T extends { metadata: { namespace?: string; name?: string } }>(
  observation: Observation<T>,
  write: ObservationStoreWrite,
  publisher: CommitPublisher,
  audit: AuditJoin,
): Promise<RecordOutcome> {
  const { namespace, name } = observationTarget(observation);
  const resourceVersions: number[] = [];
  for (;;) {
    const { result, committed } = await write(namespace, name);
    if (committed) {
      resourceVersions.push(committed.resourceVersion);
      publisher.committed(committed);
      if (observation.kind !== 'position') {
        await audit.recorded({ resourceVersion: committed.resourceVersion, namespace, name, sourceResourceVersion: observation.sourceResourceVersion });
      }
    }
    if (!result.again) return { resourceVersions };
  }
}

/** The namespace and name an observation writes to (none for a position: the write only moves the resume point). */
function observationTarget<T extends { metadata: { namespace?: string; name?: string } }>(observation: Observation<T>): { namespace: string; name: string } {
  if (observation.kind === 'position') return { namespace: '', name: '' };
  if (observation.kind === 'gone') return { namespace: observation.namespace, name: observation.name };
  return { namespace: observation.object.metadata.namespace ?? '', name: observation.object.metadata.name ?? '' };
}
