// What a reflector hands its recorder, whatever it watches (Services, Events about Services): an
// object's state, an object gone, or only a newer source position (a BOOKMARK), each with where it
// came from and the resume point its write completes.
import type { ObservedVia } from '../domain/mirror/observed-change';
import type { ResumePoint } from '../store/ports/mirror-source-store';

interface Provenance {
  via: ObservedVia;
  sourceResourceVersion: string;
  /** When the reflector received it, RFC 3339 with milliseconds. */
  observedAt: string;
  /** Absent during a list: its resume point is stored once every item is. */
  resume?: ResumePoint;
}

export type Observation<T> =
  ({ kind: 'object'; object: T } & Provenance) | ({ kind: 'gone'; namespace: string; name: string; lastKnown: T | null } & Provenance) | { kind: 'position'; resume: ResumePoint };

export interface RecordOutcome {
  /** svctrail resourceVersions of the writes appended (none when the store already held the state). */
  resourceVersions: number[];
}

/** Records observations through the store's write port, each with its resume point in the write's transaction. */
export interface ObservationRecorder<T> {
  record(observation: Observation<T>): Promise<RecordOutcome>;
}
