// The past as watch changes: what a watch resumes from, whatever the engine.
import type { ServiceWatchChange } from '../../domain/service-change';

/** The past as watch changes, for resuming a watch from a resourceVersion (either engine). */
export interface ServiceChanges {
  /**
   * The oldest resourceVersion a watch can resume from: the log's first position - 1, or the
   * compaction horizon (below it the objects a watch sends are gone; at it, its anchors hold them).
   */
  oldestResumable(): Promise<number>;
  /** Up to `limit` writes after `resourceVersion`, oldest first. */
  changesAfter(resourceVersion: number, limit: number): Promise<ServiceWatchChange[]>;
}

/** DI token of the engine's ServiceChanges. */
export const SERVICE_CHANGES = Symbol('SERVICE_CHANGES');
