// One accepted write as everything after the append sees it (projections, the change feed,
// watchers, the commit publisher): part of the store's port, since both engines produce it.
import type { ServiceState } from '../../domain/service.evolve';
import type { WriteObservation } from './mirror-source-store';
import type { RecordedEvent, WriteMetadata } from './recorded-event';

/** One accepted write to a Service: its events and the stream state before and after them. */
export interface CommittedWrite {
  /** Tells it from a CommittedEventWrite on the change feed (absent in a Service write). */
  kind?: undefined;
  resourceVersion: number;
  streamId: string;
  namespace: string;
  name: string;
  events: readonly RecordedEvent[];
  metadata: WriteMetadata;
  before: ServiceState;
  after: ServiceState;
  /** `after.object` as stored and served (JSON.stringify), encoded once for every reader; null when deleted. */
  objectJson: string | null;
  /**
   * `before.object` is the object whose JSON the stream's previous revision stored (a bulk fold
   * that stored it holds it): the revisions projection diffs it instead of reading that revision back.
   */
  beforeStored?: boolean;
  /** Mirror mode: where the observed write came from (stored beside it in observed_writes). */
  observation?: WriteObservation;
}
