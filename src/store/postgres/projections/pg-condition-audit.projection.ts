// One row per condition transition (as ConditionAuditProjection, whose transition rules it shares).
import { conditionTransitions } from '../../../projections/condition-audit.projection';
import type { Condition } from '../../../domain/service.types';
import type { CommittedWrite } from '../../../projections/projection';
import type { Queryable } from '../postgres-database';
import type { PgProjection } from './pg-projection';

interface Transition {
  conditionType: string;
  from: Condition | null;
  to: Condition | null;
}

export class PgConditionAuditProjection implements PgProjection {
  readonly name = 'condition-audit';
  readonly tables = ['condition_transitions'];

  async apply(client: Queryable, write: CommittedWrite): Promise<void> {
    for (const { event } of write.events) {
      let transitions: Transition[] = [];
      if (event.type === 'ServiceConditionChanged') {
        transitions = [{ conditionType: event.data.condition.type, from: event.data.previous, to: event.data.condition }];
      } else if (event.type === 'ServiceConditionRemoved') {
        transitions = [{ conditionType: event.data.conditionType, from: event.data.previous, to: null }];
      } else if (event.type === 'ServiceConditionsReplaced') {
        transitions = conditionTransitions(event.data.previous, event.data.conditions);
      }
      for (const t of transitions) await this.record(client, write, t);
    }
  }

  private async record(client: Queryable, write: CommittedWrite, t: Transition): Promise<void> {
    const current = t.to ?? t.from!;
    // The id is the next after the greatest, as SQLite picks a rowid: appends are serialised by
    // the append lock, so no two writers can pick the same one, and a rebuild picks the same ids.
    await client.query(
      `INSERT INTO condition_transitions (id, resource_version, uid, namespace, name, condition_type, from_status, to_status,
         reason, message, observed_generation, last_transition_time, recorded_at, actor_user)
       SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 FROM condition_transitions`,
      [
        write.resourceVersion,
        write.streamId,
        write.namespace,
        write.name,
        t.conditionType,
        t.from?.status ?? null,
        t.to?.status ?? null,
        t.to ? t.to.reason : '',
        t.to ? t.to.message : '',
        current.observedGeneration ?? null,
        t.to?.lastTransitionTime ?? null,
        write.metadata.recordedAt,
        write.metadata.user,
      ],
    );
  }
}
