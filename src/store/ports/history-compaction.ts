// Compaction of the history: below a horizon the full objects go and the facts stay. The port
// the CLI, the server's retention and the history API use, whatever the engine.
import type { LogPoint } from './log-point';

export interface Compaction {
  id: number;
  /** The newest write at or before the point asked for: the oldest one whose objects stay readable. */
  horizon: { resourceVersion: number; time: string };
  actor: { user: string };
  startedAt: string;
  /** Absent while it runs (or after it was interrupted: the next compaction at the same point finishes it). */
  finishedAt?: string;
  removed: {
    /** Writes that fell below the horizon with this compaction. */
    writes: number;
    /** Revision objects removed (anchors stay). */
    objects: number;
    /** Their stored bytes. */
    bytes: number;
  };
  /**
   * The checksum of the log at or below the horizon that `svctrail verify` checks: sha256 over
   * the events after the horizon `after` (0: the log's start), seeded with the checksum of the
   * compaction there (store/facts-checksum.ts). Absent while it runs, and on a compaction made
   * before svctrail recorded checksums.
   */
  facts?: { checksum: string; after: number };
}

export interface CompactionRequest {
  point: LogPoint;
  /** Who asked: the user the record names. */
  actor: string;
  /** Called with the revisions examined so far, after each short transaction. */
  progress?: (examined: number) => void;
}

export type CompactionOutcome =
  /** Done now (or finished, when an interrupted one had the same horizon). */
  | { kind: 'compacted'; compaction: Compaction }
  /** The history was already compacted at or past that point: nothing was done. */
  | { kind: 'unchanged'; compaction: Compaction }
  /** No write at or before the point: nothing to compact. */
  | { kind: 'empty' };

export interface HistoryCompactor {
  compact(request: CompactionRequest): Promise<CompactionOutcome>;
  /** Every compaction, oldest first. */
  list(): Promise<Compaction[]>;
}

/** DI token of the engine's HistoryCompactor. */
export const HISTORY_COMPACTOR = Symbol('HISTORY_COMPACTOR');
