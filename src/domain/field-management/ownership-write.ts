// One write's field managers before and after it: what field ownership over time is folded from
// (history/field-ownership-intervals.ts), and what the store keeps of every write, below a
// compaction's horizon as above it.
import type { ManagedFieldsEntry } from '../service.types';

export interface OwnershipWrite {
  resourceVersion: number;
  time: string;
  uid: string;
  namespace: string;
  name: string;
  before: readonly ManagedFieldsEntry[] | undefined;
  /** null: the write deleted the Service. */
  after: readonly ManagedFieldsEntry[] | undefined | null;
}
