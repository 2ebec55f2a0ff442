// A projection folds committed writes into its own tables. The live path applies it inside the
// append transaction; replay applies the same code to the whole log.
import type { ServiceState } from '../domain/service.evolve';
import type { WriteObservation } from '../store/ports/mirror-source-store';
import type { RecordedEvent, WriteMetadata } from '../store/ports/recorded-event';

/** One accepted write: its events and the stream state before and after them. */
export interface CommittedWrite {
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

export interface Projection {
  readonly name: string;
  /** Tables this projection owns (replay empties and refills them). */
  readonly tables: readonly string[];
  /**
   * Holds only the present (the live object, the allocations): a rebuild applies it once per
   * live Service, from nothing to its final state, instead of through every write.
   */
  readonly presentOnly?: boolean;
  apply(write: CommittedWrite): void;
  /**
   * A bulk rebuild's fold of the whole log, when the projection has one cheaper than `apply`
   * write by write (the rebuild drops every secondary index and trigger first): it is handed
   * every write in log order, then finished once. Called after the tables were emptied.
   */
  bulkFold?(): BulkFold;
  /** After a bulk rebuild (its triggers were off): rebuild what they keep, from the tables. */
  rebuilt?(): void;
}

export interface BulkFold {
  apply(write: CommittedWrite): void;
  /** After the last write: stores what the fold still holds. */
  finish(): void;
}
