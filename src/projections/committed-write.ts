// One write as the projections see it: its recorded events folded onto the stream's state.
// The live path, replay and catch-up all build it here, so they cannot disagree.
import { evolveAll, type ServiceState } from '../domain/service.evolve';
import type { RecordedEvent } from '../store/ports/recorded-event';
import type { Service } from '../domain/service.types';
import type { CommittedWrite } from '../store/ports/committed-write';

function withResourceVersion(before: ServiceState, count: number, folded: Service, resourceVersion: number): ServiceState {
  folded.metadata.resourceVersion = String(resourceVersion);
  return { object: folded, streamVersion: before.streamVersion + count, deleted: false };
}

/**
 * `events` are every event of one write (they share its resourceVersion), oldest first.
 * `folded` is the object those events produce, when the writer already has it (the decider's
 * invariant guard folded them): it only takes the write's resourceVersion.
 */
export function foldWrite(before: ServiceState, events: readonly RecordedEvent[], folded?: Service): CommittedWrite {
  const first = events[0];
  const after = folded
    ? withResourceVersion(before, events.length, folded, first.resourceVersion)
    : evolveAll(
        before,
        events.map((e) => e.event),
        first.resourceVersion,
      );
  return {
    resourceVersion: first.resourceVersion,
    streamId: first.streamId,
    namespace: first.namespace,
    name: first.name,
    events,
    metadata: first.metadata,
    before,
    after,
    objectJson: after.object ? JSON.stringify(after.object) : null,
  };
}
