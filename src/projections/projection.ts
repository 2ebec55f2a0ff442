// A projection folds committed writes into its own tables. The live path applies it inside the
// append transaction; replay applies the same code to the whole log.
import type { CommittedWrite } from '../store/ports/committed-write';

/** A projection of Service writes by default; `Projection<CommittedEventWrite>` folds Event writes. */
export interface Projection<W = CommittedWrite> {
  readonly name: string;
  /** Tables this projection owns (replay empties and refills them). */
  readonly tables: readonly string[];
  /**
   * Holds only the present (the live object, the allocations): a rebuild applies it once per
   * live stream, from nothing to its final state, instead of through every write.
   */
  readonly presentOnly?: boolean;
  apply(write: W): void;
  /**
   * A bulk rebuild's fold of the whole log, when the projection has one cheaper than `apply`
   * write by write (the rebuild drops every secondary index and trigger first): it is handed
   * every write in log order, then finished once. Called after the tables were emptied.
   */
  bulkFold?(): BulkFold<W>;
  /** After a bulk rebuild (its triggers were off): rebuild what they keep, from the tables. */
  rebuilt?(): void;
}

export interface BulkFold<W = CommittedWrite> {
  apply(write: W): void;
  /** After the last write: stores what the fold still holds. */
  finish(): void;
}
