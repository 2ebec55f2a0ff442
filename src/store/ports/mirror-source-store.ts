// Mirror mode's port to the store: which source cluster this store records, and where its
// reflectors resume (one point for the Services' watch, one for the Events'). A resume point moves
// inside the write transactions that record what it covers (a step's `resume`: a Service write
// moves the Services' point, an Event write the Events'), never on its own: a restart resumes
// exactly after what is durable.
import type { ObservedVia } from '../../domain/mirror/observed-change';

/** Where one recorded write came from; kept with the write (observed_writes). */
export interface WriteObservation {
  /** The source's resourceVersion of the observed object (opaque). */
  sourceResourceVersion: string;
  via: ObservedVia;
  /** When the reflector received it, RFC 3339 with milliseconds. */
  observedAt: string;
}

/**
 * The source resourceVersion to resume the watch from once the write holding it is durable. The
 * write commits only if the stored one is still `after` (the point the previous observation
 * left): when one write of a pipelined run fails, every later one fails too, so the stored
 * point never passes a change that was not recorded.
 */
export interface ResumePoint {
  resourceVersion: string;
  after: string | null;
}

/** What a mirror watches at its source, each with its own resume point. */
export type MirroredResource = 'services' | 'events';

/** The stored resume point is not the one this write follows: an earlier observation was not stored. */
export class ResumePointMovedError extends Error {
  constructor(expected: string | null, stored: string | null, resource: MirroredResource = 'services') {
    super(`the mirror's resume point of ${resource} is ${stored ?? 'unset'}, not ${expected ?? 'unset'}: an earlier observation was not stored`);
  }
}

export interface MirrorSource {
  /** The uid of the source's default/kubernetes Service: one store records one cluster. */
  clusterUid: string;
  server: string;
  /** Where the Services' watch resumes; null until a complete LIST was recorded: the reflector lists first. */
  resourceVersion: string | null;
  /** Where the watch of Events about Services resumes (moved by Event writes only); null until its first LIST was recorded. */
  eventsResourceVersion: string | null;
}

/** A store that recorded one cluster is started against another. */
export class MirrorSourceMismatchError extends Error {
  constructor(stored: MirrorSource, clusterUid: string, server: string) {
    super(
      `this store records the cluster whose default/kubernetes Service has uid ${stored.clusterUid} (first mirrored from ${stored.server}); ` +
        `the kubeconfig names ${server}, whose default/kubernetes Service has uid ${clusterUid}: a store mirrors one cluster — use another --data-dir or --storage`,
    );
  }
}

/**
 * A recorded write's observation, with the field manager its events name: the manager whose
 * managedFields entry the write changed, the hint of who made it until an audit event says.
 */
export interface ObservedWrite extends WriteObservation {
  fieldManager: string;
}

/** Where recorded writes came from, for the history API. */
export interface MirrorObservations {
  /** The observation of each recorded write among `resourceVersions` (direct writes have none). */
  observations(resourceVersions: readonly number[]): Promise<Map<number, ObservedWrite>>;
}

export interface MirrorSourceStore extends MirrorObservations {
  /** The recorded source, or null for a store that never mirrored. */
  load(): Promise<MirrorSource | null>;
  /**
   * Binds the store to the cluster `clusterUid` (no-op when it already is); rejects with
   * MirrorSourceMismatchError when the store records another one.
   */
  claim(clusterUid: string, server: string, now: Date): Promise<MirrorSource>;
}

/** DI token of MirrorObservations, provided in mirror mode only (the history API then adds `source` to items). */
export const MIRROR_OBSERVATIONS = Symbol('MIRROR_OBSERVATIONS');

/** DI token of the audit actors' reads, provided in mirror mode only (history items then show who made each mirrored write). */
export const MIRROR_ACTORS = Symbol('MIRROR_ACTORS');

/** DI token of the engine's MirrorSourceStore. */
export const MIRROR_SOURCE_STORE = Symbol('MIRROR_SOURCE_STORE');
