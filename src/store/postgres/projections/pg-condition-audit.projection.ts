// One row per condition transition (as ConditionAuditProjection, whose transition rules it shares).
import { eventTransitions, transitionRow } from '../../../projections/condition-audit.projection';
import type { Transition } from '../../../projections/condition-audit.projection';
import type { ServiceEvent } from '../../../domain/service.events';
import type { CommittedWrite } from '../../../projections/projection';
import type { Queryable } from '../postgres-database';
import type { PgProjection } from './pg-projection';

export class PgConditionAuditProjection implements PgProjection {
  readonly name = 'condition-audit';
  readonly tables = ['condition_transitions'];

  async apply(client: Queryable, write: CommittedWrite): Promise<void> {
    for (const { event } of write.events) {
      for (const t of eventTransitions(event as ServiceEvent)) await this.record(client, write, t);
    }
  }

  private async record(client: Queryable, write: CommittedWrite, t: Transition): Promise<void> {
    // The id is the next after the greatest, as SQLite picks a rowid: appends are serialised by
    // the append lock, so no two writers can pick the same one, and a rebuild picks the same ids.
    await client.query(
      `INSERT INTO condition_transitions (id, resource_version, uid, namespace, name, condition_type, from_status, to_status,
         reason, message, observed_generation, last_transition_time, recorded_at, actor_user)
       SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 FROM condition_transitions`,
      Object.values(transitionRow(write, t)),
    );
  }
}
