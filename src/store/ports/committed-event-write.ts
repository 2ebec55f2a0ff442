// One accepted write to a core/v1 Event as everything after the append sees it (the Events'
// projections, the change feed, watchers), produced by both engines like CommittedWrite.
import type { KubeEventState } from '../../domain/kube-event/kube-event.evolve';
import type { KubeEventFact } from '../../domain/kube-event/kube-event.facts';
import type { CommittedWrite } from './committed-write';
import type { WriteObservation } from './mirror-source-store';
import type { RecordedEvent, WriteMetadata } from './recorded-event';

export interface CommittedEventWrite {
  kind: 'Event';
  resourceVersion: number;
  /** The Event's uid. */
  streamId: string;
  namespace: string;
  name: string;
  /** Its one fact (an Event write appends exactly one). */
  events: readonly [RecordedEvent<KubeEventFact>];
  metadata: WriteMetadata;
  before: KubeEventState;
  after: KubeEventState;
  /** `after.object` as stored and served (JSON.stringify); null when the write ended it. */
  objectJson: string | null;
  /** Mirror mode: where the observed write came from. */
  observation?: WriteObservation;
}

/** Any write the log holds, as the change feed carries it. */
export type LoggedWrite = CommittedWrite | CommittedEventWrite;

export function isEventWrite(write: LoggedWrite): write is CommittedEventWrite {
  return write.kind === 'Event';
}
