// Reads the condition audit log (condition_transitions) with the actor of each transition's
// write (the write's last event sits at position = its resourceVersion: a primary-key lookup).
// Lists are ordered by (resourceVersion, id) and driven by the index of their scope (named on
// SQLite; PostgreSQL's planner finds the same indexes). One implementation for both engines.
import { RepeatedTextCache, type RepeatedTextFields } from './repeated-text-cache';
import type { SummaryTransition } from '../domain/condition-summary';
import { SqlParams, type SqlReader } from './sql/sql-reader';
import type { ConditionHistory, Lifetime, ServiceKey, TransitionRange, TransitionRow } from './ports/condition-history';

const COLUMNS = `t.id, t.resource_version AS "resourceVersion", t.uid, t.namespace, t.name, t.condition_type AS "conditionType",
  t.from_status AS "fromStatus", t.to_status AS "toStatus", t.reason, t.message, t.observed_generation AS "observedGeneration",
  t.last_transition_time AS "lastTransitionTime", t.recorded_at AS "recordedAt", t.actor_user AS "actorUser",
  e.actor_groups AS "actorGroups", e.user_agent AS "userAgent", e.field_manager AS "fieldManager", e.request_id AS "requestId",
  NULL AS "actorUserId", e.actor_groups_id AS "actorGroupsId", e.user_agent_id AS "userAgentId", e.field_manager_id AS "fieldManagerId"`;

/** What a summary folds, and nothing else: no message, no actor (so no join with the events). */
const SUMMARY_ROWS = (indexedBy: string) => `SELECT condition_type AS "conditionType", from_status AS "fromStatus", to_status AS "toStatus", recorded_at AS "recordedAt"
  FROM condition_transitions${indexedBy} WHERE uid = $1 AND resource_version <= $2 ORDER BY condition_type, resource_version, id`;
const KEY_OF_UID = (indexedBy: string) => `SELECT namespace, name, uid FROM condition_transitions${indexedBy} WHERE uid = $1 LIMIT 1`;
const FIRST_EVENT = 'SELECT recorded_at AS "recordedAt" FROM events WHERE stream_id = $1 AND stream_version = 1';
const LAST_EVENT = 'SELECT type, recorded_at AS "recordedAt", position FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1';

export class ConditionHistoryRepository implements ConditionHistory {
  private readonly summaryRows;
  private readonly keyOfUid;
  private readonly texts: RepeatedTextCache;

  constructor(private readonly db: SqlReader) {
    this.texts = new RepeatedTextCache(db);
    const byUid = db.dialect.indexedBy('condition_transitions_uid_type_rv');
    this.summaryRows = SUMMARY_ROWS(byUid);
    this.keyOfUid = KEY_OF_UID(byUid);
  }

  /** One page of transitions: its SQL and values. */
  rangeQuery(range: TransitionRange, limit: number): { sql: string; values: unknown[] } {
    const p = new SqlParams();
    // The keyset cursor starts the range at its resourceVersion; ties are broken by id.
    const fromRv = range.after ? Math.max(range.fromRv, range.after.rv) : range.fromRv;
    const where = [`t.resource_version >= ${p.param(fromRv)}`, `t.resource_version <= ${p.param(range.toRv)}`];
    let index: string;
    if (range.uid !== undefined) index = 'condition_transitions_uid_type_rv';
    else if (range.name !== undefined) index = 'condition_transitions_name_rv';
    else if (range.namespace !== undefined) index = 'condition_transitions_namespace_rv';
    else index = 'condition_transitions_rv';
    if (range.uid !== undefined) where.push(`t.uid = ${p.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`t.namespace = ${p.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`t.name = ${p.param(range.name)}`);
    if (range.conditionType !== undefined) where.push(`t.condition_type = ${p.param(range.conditionType)}`);
    if (range.status !== undefined) where.push(`t.to_status = ${p.param(range.status)}`);
    if (range.actor !== undefined) where.push(`t.actor_user = ${p.param(range.actor)}`);
    if (range.after) where.push(`(t.resource_version > ${p.param(range.after.rv)} OR t.id > ${p.param(range.after.id)})`);
    const sql = `SELECT ${COLUMNS} FROM condition_transitions t${this.db.dialect.indexedBy(index)} JOIN events e ON e.position = t.resource_version
      WHERE ${where.join(' AND ')} ORDER BY t.resource_version, t.id LIMIT ${p.param(limit)}`;
    return { sql, values: p.values };
  }

  async transitions(range: TransitionRange, limit: number): Promise<TransitionRow[]> {
    const { sql, values } = this.rangeQuery(range, limit);
    // The write's repeated texts by id, resolved from memory; the ids stay on the rows (copying
    // each row without them cost more than reading it).
    return this.texts.resolve(await this.db.all<TransitionRow & RepeatedTextFields>(sql, values));
  }

  /** One page of Service incarnations: its SQL and values. */
  servicesQuery(scope: { namespace?: string; name?: string; after?: ServiceKey }, limit: number): { sql: string; values: unknown[] } {
    const after = scope.after ?? { namespace: '', name: '', uid: '' };
    const p = new SqlParams();
    const where = [`(namespace, name, uid) > (${p.param(after.namespace)}, ${p.param(after.name)}, ${p.param(after.uid)})`];
    if (scope.namespace !== undefined) where.push(`namespace = ${p.param(scope.namespace)}`);
    if (scope.name !== undefined) where.push(`name = ${p.param(scope.name)}`);
    const sql = `SELECT DISTINCT namespace, name, uid FROM condition_transitions${this.db.dialect.indexedBy('condition_transitions_service')}
      WHERE ${where.join(' AND ')} ORDER BY namespace, name, uid LIMIT ${p.param(limit)}`;
    return { sql, values: p.values };
  }

  /** Service incarnations with at least one transition, in (namespace, name, uid) order. */
  async services(scope: { namespace?: string; name?: string; after?: ServiceKey }, limit: number): Promise<ServiceKey[]> {
    const { sql, values } = this.servicesQuery(scope, limit);
    return this.db.all<ServiceKey>(sql, values);
  }

  /** The one incarnation `uid`, if it has transitions, is in the scope and comes after the cursor. */
  async serviceOf(uid: string, scope: { namespace?: string; name?: string }, after?: ServiceKey): Promise<ServiceKey[]> {
    const key = await this.db.one<ServiceKey>(this.keyOfUid, [uid]);
    if (!key || (scope.namespace !== undefined && key.namespace !== scope.namespace) || (scope.name !== undefined && key.name !== scope.name)) return [];
    if (after && [key.namespace, key.name, key.uid].join('\u0000') <= [after.namespace, after.name, after.uid].join('\u0000')) return [];
    return [key];
  }

  /** What a summary of one incarnation folds, up to a resourceVersion, by condition type then time. */
  async summaryTransitionsOfService(uid: string, untilRv: number): Promise<SummaryTransition[]> {
    return this.db.all<SummaryTransition>(this.summaryRows, [uid, untilRv]);
  }

  /** When the incarnation was created and, if it was, deleted (as of a resourceVersion). */
  async lifetime(uid: string, untilRv: number): Promise<Lifetime> {
    const createdAt = (await this.db.one<{ recordedAt: string }>(FIRST_EVENT, [uid]))?.recordedAt ?? null;
    const last = await this.db.one<{ type: string; recordedAt: string; position: number }>(LAST_EVENT, [uid]);
    const deletedAt = last && last.type === 'ServiceDeleted' && last.position <= untilRv ? last.recordedAt : null;
    return { createdAt, deletedAt };
  }
}
