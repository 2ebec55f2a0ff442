// The condition audit log: transitions, the incarnations that had them, what a summary folds,
// whatever the engine.
import type { SummaryTransition } from '../../domain/condition-summary';
import type { StoredActor } from './event-row';

export interface TransitionRange {
  namespace?: string;
  name?: string;
  uid?: string;
  conditionType?: string;
  status?: string;
  actor?: string;
  fromRv: number;
  toRv: number;
  /** Keyset cursor: strictly after (rv, id). */
  after?: { rv: number; id: number };
}

export interface TransitionRow extends StoredActor {
  id: number;
  resourceVersion: number;
  uid: string;
  namespace: string;
  name: string;
  conditionType: string;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string;
  message: string;
  observedGeneration: number | null;
  lastTransitionTime: string | null;
}

export interface ServiceKey {
  namespace: string;
  name: string;
  uid: string;
}

export interface Lifetime {
  createdAt: string | null;
  deletedAt: string | null;
}

/** The condition audit log, for the condition history API (either engine). */
export interface ConditionHistory {
  transitions(range: TransitionRange, limit: number): Promise<TransitionRow[]>;
  /** Service incarnations with at least one transition, in (namespace, name, uid) order. */
  services(scope: { namespace?: string; name?: string; after?: ServiceKey }, limit: number): Promise<ServiceKey[]>;
  /** The one incarnation `uid`, if it has transitions, is in the scope and comes after the cursor. */
  serviceOf(uid: string, scope: { namespace?: string; name?: string }, after?: ServiceKey): Promise<ServiceKey[]>;
  /** What a summary of one incarnation folds, up to a resourceVersion, by condition type then time. */
  summaryTransitionsOfService(uid: string, untilRv: number): Promise<SummaryTransition[]>;
  /** When the incarnation was created and, if it was, deleted (as of a resourceVersion). */
  lifetime(uid: string, untilRv: number): Promise<Lifetime>;
}

/** DI token of the engine's ConditionHistory. */
export const CONDITION_HISTORY = Symbol('CONDITION_HISTORY');
