// ConditionHistory on PostgreSQL: the same answers as ConditionHistoryRepository, each list one
// statement ordered by (resourceVersion, id) on the index of its scope.
import type { SummaryTransition } from '../../../history/condition-summary';
import type { ConditionHistory, Lifetime, ServiceKey, TransitionRange, TransitionRow } from '../../condition-history-repository';
import type { PgReadScope } from './pg-read-scope';
import { PgSqlParams } from './pg-sql-params';

const COLUMNS = `t.id, t.resource_version AS "resourceVersion", t.uid, t.namespace, t.name, t.condition_type AS "conditionType",
  t.from_status AS "fromStatus", t.to_status AS "toStatus", t.reason, t.message, t.observed_generation AS "observedGeneration",
  t.last_transition_time AS "lastTransitionTime", t.recorded_at AS "recordedAt", t.actor_user AS "actorUser",
  e.actor_groups AS "actorGroups", e.user_agent AS "userAgent", e.field_manager AS "fieldManager", e.request_id AS "requestId"`;

export class PgConditionHistory implements ConditionHistory {
  constructor(private readonly scope: PgReadScope) {}

  async transitions(range: TransitionRange, limit: number): Promise<TransitionRow[]> {
    const p = new PgSqlParams();
    // The keyset cursor starts the range at its resourceVersion; ties are broken by id.
    const fromRv = range.after ? Math.max(range.fromRv, range.after.rv) : range.fromRv;
    const where = [`t.resource_version >= ${p.param(fromRv)}`, `t.resource_version <= ${p.param(range.toRv)}`];
    if (range.uid !== undefined) where.push(`t.uid = ${p.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`t.namespace = ${p.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`t.name = ${p.param(range.name)}`);
    if (range.conditionType !== undefined) where.push(`t.condition_type = ${p.param(range.conditionType)}`);
    if (range.status !== undefined) where.push(`t.to_status = ${p.param(range.status)}`);
    if (range.actor !== undefined) where.push(`t.actor_user = ${p.param(range.actor)}`);
    if (range.after) where.push(`(t.resource_version > ${p.param(range.after.rv)} OR t.id > ${p.param(range.after.id)})`);
    const { rows } = await this.scope.db.query<TransitionRow>(
      `SELECT ${COLUMNS} FROM condition_transitions t JOIN events e ON e.position = t.resource_version
       WHERE ${where.join(' AND ')} ORDER BY t.resource_version, t.id LIMIT ${p.param(limit)}`,
      p.values,
    );
    return rows;
  }

  async services(scope: { namespace?: string; name?: string; after?: ServiceKey }, limit: number): Promise<ServiceKey[]> {
    const after = scope.after ?? { namespace: '', name: '', uid: '' };
    const p = new PgSqlParams();
    const where = [`(namespace, name, uid) > (${p.param(after.namespace)}, ${p.param(after.name)}, ${p.param(after.uid)})`];
    if (scope.namespace !== undefined) where.push(`namespace = ${p.param(scope.namespace)}`);
    if (scope.name !== undefined) where.push(`name = ${p.param(scope.name)}`);
    const { rows } = await this.scope.db.query<ServiceKey>(
      `SELECT DISTINCT namespace, name, uid FROM condition_transitions WHERE ${where.join(' AND ')} ORDER BY namespace, name, uid LIMIT ${p.param(limit)}`,
      p.values,
    );
    return rows;
  }

  async serviceOf(uid: string, scope: { namespace?: string; name?: string }, after?: ServiceKey): Promise<ServiceKey[]> {
    const { rows } = await this.scope.db.query<ServiceKey>('SELECT namespace, name, uid FROM condition_transitions WHERE uid = $1 LIMIT 1', [uid]);
    const key = rows[0];
    if (!key || (scope.namespace !== undefined && key.namespace !== scope.namespace) || (scope.name !== undefined && key.name !== scope.name)) return [];
    if (after && [key.namespace, key.name, key.uid].join('\u0000') <= [after.namespace, after.name, after.uid].join('\u0000')) return [];
    return [key];
  }

  async summaryTransitionsOfService(uid: string, untilRv: number): Promise<SummaryTransition[]> {
    const { rows } = await this.scope.db.query<SummaryTransition>(
      `SELECT condition_type AS "conditionType", from_status AS "fromStatus", to_status AS "toStatus", recorded_at AS "recordedAt"
       FROM condition_transitions WHERE uid = $1 AND resource_version <= $2 ORDER BY condition_type, resource_version, id`,
      [uid, untilRv],
    );
    return rows;
  }

  async lifetime(uid: string, untilRv: number): Promise<Lifetime> {
    const first = await this.scope.db.query<{ recordedAt: string }>('SELECT recorded_at AS "recordedAt" FROM events WHERE stream_id = $1 AND stream_version = 1', [uid]);
    const last = await this.scope.db.query<{ type: string; recordedAt: string; position: number }>(
      'SELECT type, recorded_at AS "recordedAt", position FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1',
      [uid],
    );
    const createdAt = first.rows[0]?.recordedAt ?? null;
    const l = last.rows[0];
    const deletedAt = l && l.type === 'ServiceDeleted' && l.position <= untilRv ? l.recordedAt : null;
    return { createdAt, deletedAt };
  }
}
