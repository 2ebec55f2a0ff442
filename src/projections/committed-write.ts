// One write as the projections see it: its recorded events folded onto the stream's state.
// The live path, replay and catch-up all build it here, so they cannot disagree.
import type { ServiceEvent } from '../domain/service.events';
import { evolveAll, ServiceState } from '../domain/service.evolve';
import type { RecordedEvent } from '../store/recorded-event';
import type { CommittedWrite } from './projection';

/** `events` are every event of one write (they share its resourceVersion), oldest first. */
export function foldWrite(before: ServiceState, events: readonly RecordedEvent[]): CommittedWrite {
  const first = events[0];
  const after = evolveAll(before, events.map((e) => e.event as ServiceEvent), first.resourceVersion);
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
