// The write side of the store port: what the command pipeline needs from any storage engine.
// It is asynchronous so that an engine whose driver is (node-postgres) can implement it; the
// pure part of a write (load → decide → fold) is a step the engine calls, so no caller ever holds
// a transaction open across an await of its own. SQLite runs it inside its write transaction;
// PostgreSQL runs it on a snapshot and appends only if the state it decided on is still the live
// one (compare-and-append), deciding again otherwise.
import type { ServiceEvent } from '../../domain/service.events';
import type { ServiceState } from '../../domain/service.evolve';
import type { Service } from '../../domain/service.types';
import type { CommittedWrite } from './committed-write';
import type { ResumePoint, WriteObservation } from './mirror-source-store';
import type { WriteMetadata } from './recorded-event';

/** What a write step may read: the stored state it decides on. */
export interface StoredFacts {
  /** The live incarnation of the named Service (the initial state when there is none). */
  readonly state: ServiceState;
  /** When the write is recorded: the clock's time, never before the log's newest write. */
  readonly now: Date;
  /** The allocation table before this write (the written object's own values included). */
  clusterIPTaken(ip: string): boolean;
  nodePortTaken(port: number): boolean;
}

/** Events to append to one stream, and the state they apply to. */
export interface StepAppend {
  streamId: string;
  expectedVersion: number;
  events: readonly ServiceEvent[];
  metadata: WriteMetadata;
  /** The stream's state before the events (the initial state for a creation). */
  before: ServiceState;
  /** The object the events fold to, when the step already folded them. */
  folded?: Service;
  /** Mirror mode: where the observed write came from, stored with it. */
  observation?: WriteObservation;
}

export interface StepOutcome<R> {
  /** Absent for a no-op or a dry run: nothing is appended. */
  append?: StepAppend;
  /** Mirror mode: the source position this write completes, stored in its transaction (with or without an append). */
  resume?: ResumePoint;
  /** The answer, given the committed write when something was appended. */
  finish(committed?: CommittedWrite): R;
}

/**
 * The pure part of one write. It may throw (a domain error): then nothing is stored. An engine
 * may run it more than once in one write (for instance after fetching facts it asked for), so
 * it must not have effects beyond drawing ids.
 */
export type WriteStep<R> = (facts: StoredFacts) => StepOutcome<R>;

export interface ServiceWriteStore {
  /**
   * Runs `step` on the live state of `namespace/name`, appends and projects what it returns (only
   * if that state is still the live one when it is appended), and resolves once that is durable. `committed` is absent when
   * nothing was appended. Rejects with WriteNotStoredError when the outcome is not durable.
   */
  write<R>(namespace: string, name: string, step: WriteStep<R>): Promise<{ result: R; committed?: CommittedWrite }>;
}

/** DI token of the engine's ServiceWriteStore. */
export const SERVICE_WRITE_STORE = Symbol('SERVICE_WRITE_STORE');
