// One Event write as the projections see it: its fact folded onto the Event's state. The live
// path, replay and catch-up all build it here.
import { evolveKubeEvent, type KubeEventState } from '../domain/kube-event/kube-event.evolve';
import type { KubeEventFact } from '../domain/kube-event/kube-event.facts';
import type { CommittedEventWrite } from '../store/ports/committed-event-write';
import type { RecordedEvent } from '../store/ports/recorded-event';

export function foldEventWrite(before: KubeEventState, recorded: RecordedEvent<KubeEventFact>): CommittedEventWrite {
  const after = evolveKubeEvent(before, recorded.event, recorded.resourceVersion);
  return {
    kind: 'Event',
    resourceVersion: recorded.resourceVersion,
    streamId: recorded.streamId,
    namespace: recorded.namespace,
    name: recorded.name,
    events: [recorded],
    metadata: recorded.metadata,
    before,
    after,
    objectJson: after.object ? JSON.stringify(after.object) : null,
  };
}
