// One row per condition transition: type, from -> to status, reason, message, when, who.
import type { ServiceEvent } from '../domain/service.events';
import type { Condition } from '../domain/service.types';
import type { DatabaseHandle } from '../store/database';
import type { Projection } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';

export interface Transition {
  conditionType: string;
  from: Condition | null;
  to: Condition | null;
}

/** Keyed transitions between two condition lists (first occurrence of a type wins). */
export function transitionsBetween(previous: readonly Condition[], next: readonly Condition[]): Transition[] {
  const byType = (list: readonly Condition[]) => {
    const map = new Map<string, Condition>();
    for (const c of list) if (!map.has(c.type)) map.set(c.type, c);
    return map;
  };
  const before = byType(previous);
  const after = byType(next);
  const out: Transition[] = [];
  for (const [type, from] of before) if (!after.has(type)) out.push({ conditionType: type, from, to: null });
  for (const [type, to] of after) {
    const from = before.get(type) ?? null;
    if (!from || JSON.stringify(from) !== JSON.stringify(to)) out.push({ conditionType: type, from, to });
  }
  return out;
}

/** The condition transitions one event records (none for an event that is not about conditions). */
export function eventTransitions(event: ServiceEvent): Transition[] {
  if (event.type === 'ServiceConditionChanged') return [{ conditionType: event.data.condition.type, from: event.data.previous, to: event.data.condition }];
  if (event.type === 'ServiceConditionRemoved') return [{ conditionType: event.data.conditionType, from: event.data.previous, to: null }];
  if (event.type === 'ServiceConditionsReplaced') return transitionsBetween(event.data.previous, event.data.conditions);
  // A creation that already carries conditions (a mirror's first sight of a Service): each appears.
  if (event.type === 'ServiceCreated') return transitionsBetween([], event.data.object.status?.conditions ?? []);
  return [];
}

/** The write a transition row names: its resourceVersion, Service and actor. */
type TransitionWrite = Pick<CommittedWrite, 'resourceVersion' | 'streamId' | 'namespace' | 'name'> & { metadata: Pick<CommittedWrite['metadata'], 'recordedAt' | 'user'> };

/** The cells of a condition_transitions row that the transition itself decides, in column order. */
export function transitionCells(t: Transition) {
  const current = t.to ?? t.from!;
  return {
    conditionType: t.conditionType,
    fromStatus: t.from?.status ?? null,
    toStatus: t.to?.status ?? null,
    reason: t.to ? t.to.reason : '',
    message: t.to ? t.to.message : '',
    observedGeneration: current.observedGeneration ?? null,
    lastTransitionTime: t.to?.lastTransitionTime ?? null,
  };
}

/**
 * The condition_transitions row of one transition, every column but its id, keys in column
 * order (an engine binding them by position takes Object.values): one rule for every engine,
 * the live projections and the bulk folds alike.
 */
export function transitionRow(write: TransitionWrite, t: Transition) {
  return {
    resourceVersion: write.resourceVersion,
    uid: write.streamId,
    namespace: write.namespace,
    name: write.name,
    ...transitionCells(t),
    recordedAt: write.metadata.recordedAt,
    actorUser: write.metadata.user,
  };
}

export class ConditionAuditProjection implements Projection {
  readonly name = 'condition-audit';
  readonly tables = ['condition_transitions'];
  private readonly insert;

  constructor(handle: DatabaseHandle) {
    this.insert = handle.sqlite.prepare(
      `INSERT INTO condition_transitions (resource_version, uid, namespace, name, condition_type, from_status, to_status,
         reason, message, observed_generation, last_transition_time, recorded_at, actor_user)
       VALUES (@resourceVersion, @uid, @namespace, @name, @conditionType, @fromStatus, @toStatus,
         @reason, @message, @observedGeneration, @lastTransitionTime, @recordedAt, @actorUser)`,
    );
  }

  apply(write: CommittedWrite): void {
    for (const { event } of write.events) for (const t of eventTransitions(event)) this.insert.run(transitionRow(write, t));
  }
}
