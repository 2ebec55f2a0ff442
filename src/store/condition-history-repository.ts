// Reads the condition audit log (condition_transitions) with the actor of each transition's
// write (the write's last event sits at position = its resourceVersion: a primary-key lookup).
// Lists are ordered by (resourceVersion, id) and driven by the index of their scope.
import type { SummaryTransition } from '../history/condition-summary';
import type { DatabaseHandle } from './database';

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

export interface TransitionRow {
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
  recordedAt: string;
  actorUser: string;
  actorGroups: string;
  userAgent: string;
  fieldManager: string;
  requestId: string;
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

const COLUMNS = `t.id, t.resource_version AS resourceVersion, t.uid, t.namespace, t.name, t.condition_type AS conditionType,
  t.from_status AS fromStatus, t.to_status AS toStatus, t.reason, t.message, t.observed_generation AS observedGeneration,
  t.last_transition_time AS lastTransitionTime, t.recorded_at AS recordedAt, t.actor_user AS actorUser,
  e.actor_groups AS actorGroups, e.user_agent AS userAgent, e.field_manager AS fieldManager, e.request_id AS requestId`;

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

export class ConditionHistoryRepository implements ConditionHistory {
  private readonly summaryRows;
  private readonly firstEvent;
  private readonly lastEvent;
  private readonly keyOfUid;

  constructor(private readonly handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    // What a summary folds, and nothing else: no message, no actor (so no join with the events).
    this.summaryRows = sqlite.prepare(
      `SELECT condition_type AS conditionType, from_status AS fromStatus, to_status AS toStatus, recorded_at AS recordedAt
       FROM condition_transitions INDEXED BY condition_transitions_uid_type_rv WHERE uid = ? AND resource_version <= ? ORDER BY condition_type, resource_version, id`,
    );
    this.keyOfUid = sqlite.prepare('SELECT namespace, name, uid FROM condition_transitions INDEXED BY condition_transitions_uid_type_rv WHERE uid = ? LIMIT 1');
    this.firstEvent = sqlite.prepare('SELECT recorded_at FROM events WHERE stream_id = ? AND stream_version = 1').pluck();
    this.lastEvent = sqlite.prepare('SELECT type, recorded_at AS recordedAt, position FROM events WHERE stream_id = ? ORDER BY stream_version DESC LIMIT 1');
  }

  static rangeSql(range: Omit<TransitionRange, 'fromRv' | 'toRv'>): string {
    const where = ['t.resource_version >= @fromRv', 't.resource_version <= @toRv'];
    let index: string;
    if (range.uid !== undefined) index = 'condition_transitions_uid_type_rv';
    else if (range.name !== undefined) index = 'condition_transitions_name_rv';
    else if (range.namespace !== undefined) index = 'condition_transitions_namespace_rv';
    else index = 'condition_transitions_rv';
    if (range.uid !== undefined) where.push('t.uid = @uid');
    if (range.namespace !== undefined) where.push('t.namespace = @namespace');
    if (range.name !== undefined) where.push('t.name = @name');
    if (range.conditionType !== undefined) where.push('t.condition_type = @conditionType');
    if (range.status !== undefined) where.push('t.to_status = @status');
    if (range.actor !== undefined) where.push('t.actor_user = @actor');
    if (range.after) where.push('(t.resource_version > @afterRv OR t.id > @afterId)');
    return `SELECT ${COLUMNS} FROM condition_transitions t INDEXED BY ${index} JOIN events e ON e.position = t.resource_version
      WHERE ${where.join(' AND ')} ORDER BY t.resource_version, t.id LIMIT @limit`;
  }

  async transitions(range: TransitionRange, limit: number): Promise<TransitionRow[]> {
    const after = range.after ? { afterRv: range.after.rv, afterId: range.after.id } : {};
    // The keyset cursor starts the range at its resourceVersion; ties are broken by id.
    const fromRv = range.after ? Math.max(range.fromRv, range.after.rv) : range.fromRv;
    return this.handle.statement(ConditionHistoryRepository.rangeSql(range)).all({ ...range, ...after, fromRv, limit }) as TransitionRow[];
  }

  static servicesSql(scoped: { namespace?: boolean; name?: boolean }): string {
    const where = ['(namespace > @afterNamespace OR (namespace = @afterNamespace AND (name > @afterName OR (name = @afterName AND uid > @afterUid))))'];
    if (scoped.namespace) where.push('namespace = @namespace');
    if (scoped.name) where.push('name = @name');
    return `SELECT DISTINCT namespace, name, uid FROM condition_transitions INDEXED BY condition_transitions_service
      WHERE ${where.join(' AND ')} ORDER BY namespace, name, uid LIMIT @limit`;
  }

  /** Service incarnations with at least one transition, in (namespace, name, uid) order. */
  async services(scope: { namespace?: string; name?: string; after?: ServiceKey }, limit: number): Promise<ServiceKey[]> {
    const after = scope.after ?? { namespace: '', name: '', uid: '' };
    return this.handle
      .statement(ConditionHistoryRepository.servicesSql({ namespace: scope.namespace !== undefined, name: scope.name !== undefined }))
      .all({ namespace: scope.namespace, name: scope.name, afterNamespace: after.namespace, afterName: after.name, afterUid: after.uid, limit }) as ServiceKey[];
  }

  /** The one incarnation `uid`, if it has transitions, is in the scope and comes after the cursor. */
  async serviceOf(uid: string, scope: { namespace?: string; name?: string }, after?: ServiceKey): Promise<ServiceKey[]> {
    const key = this.keyOfUid.get(uid) as ServiceKey | undefined;
    if (!key || (scope.namespace !== undefined && key.namespace !== scope.namespace) || (scope.name !== undefined && key.name !== scope.name)) return [];
    if (after && [key.namespace, key.name, key.uid].join('\u0000') <= [after.namespace, after.name, after.uid].join('\u0000')) return [];
    return [key];
  }

  /** What a summary of one incarnation folds, up to a resourceVersion, by condition type then time. */
  async summaryTransitionsOfService(uid: string, untilRv: number): Promise<SummaryTransition[]> {
    return this.summaryRows.all(uid, untilRv) as SummaryTransition[];
  }

  /** When the incarnation was created and, if it was, deleted (as of a resourceVersion). */
  async lifetime(uid: string, untilRv: number): Promise<Lifetime> {
    const createdAt = (this.firstEvent.get(uid) as string | undefined) ?? null;
    const last = this.lastEvent.get(uid) as { type: string; recordedAt: string; position: number } | undefined;
    const deletedAt = last && last.type === 'ServiceDeleted' && last.position <= untilRv ? last.recordedAt : null;
    return { createdAt, deletedAt };
  }
}
