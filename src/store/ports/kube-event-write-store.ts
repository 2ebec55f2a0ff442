// The write side of the store port for core/v1 Events, beside the Services' (service-write-store.ts)
// and built the same way: the pure part of a write is a step the engine runs on the Event's live
// state inside its transaction (SQLite) or on a snapshot with compare-and-append (PostgreSQL);
// the Event's fact goes into the same log, numbered in the same sequence.
import type { KubeEventState } from '../../domain/kube-event/kube-event.evolve';
import type { KubeEventFact } from '../../domain/kube-event/kube-event.facts';
import type { CommittedEventWrite } from './committed-event-write';
import type { ResumePoint, WriteObservation } from './mirror-source-store';
import type { WriteMetadata } from './recorded-event';

/** What an Event write step may read: the stored state it decides on. */
export interface KubeEventFacts {
  /** The live incarnation of the named Event (the initial state when there is none). */
  readonly state: KubeEventState;
  /** When the write is recorded: the clock's time, never before the log's newest write. */
  readonly now: Date;
}

export interface KubeEventStepAppend {
  /** The Event's uid. */
  streamId: string;
  expectedVersion: number;
  fact: KubeEventFact;
  metadata: WriteMetadata;
  /** The stream's state before the fact (the initial state for a creation). */
  before: KubeEventState;
  /** Mirror mode: where the observed write came from, stored with it. */
  observation?: WriteObservation;
}

export interface KubeEventStepOutcome<R> {
  /** Absent for a no-op or a dry run: nothing is appended. */
  append?: KubeEventStepAppend;
  /**
   * Mirror mode: the Events watch's source position this write completes, stored in its
   * transaction (with or without an append) as the Events' resume point (mirror_source
   * events_resource_version), only if the stored one is still `after` (else ResumePointMovedError).
   */
  resume?: ResumePoint;
  finish(committed?: CommittedEventWrite): R;
}

/** The pure part of one Event write; it may throw a domain error (nothing is stored) and may run more than once. */
export type KubeEventWriteStep<R> = (facts: KubeEventFacts) => KubeEventStepOutcome<R>;

export interface KubeEventWriteStore {
  /**
   * Runs `step` on the live state of the Event `namespace/name`, appends and projects its fact
   * (only if that state is still the live one), and resolves once that is durable. Rejects with
   * WriteNotStoredError when the outcome is not durable.
   */
  write<R>(namespace: string, name: string, step: KubeEventWriteStep<R>): Promise<{ result: R; committed?: CommittedEventWrite }>;
}

/** DI token of the engine's KubeEventWriteStore. */
export const KUBE_EVENT_WRITE_STORE = Symbol('KUBE_EVENT_WRITE_STORE');
