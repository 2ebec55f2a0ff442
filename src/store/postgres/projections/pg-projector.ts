// Runs every PostgreSQL projection, in the SQLite Projector's order, for one committed write.
import type { CommittedWrite } from '../../../projections/projection';
import type { Queryable } from '../postgres-database';
import { PgAllocationsProjection } from './pg-allocations.projection';
import { PgConditionAuditProjection } from './pg-condition-audit.projection';
import { PgCurrentObjectProjection } from './pg-current-object.projection';
import { PgIngressHistoryProjection } from './pg-ingress-history.projection';
import type { PgProjection } from './pg-projection';
import { PgServiceRevisionsProjection } from './pg-service-revisions.projection';

export class PgProjector {
  readonly projections: readonly PgProjection[] = [
    new PgCurrentObjectProjection(),
    new PgServiceRevisionsProjection(),
    new PgConditionAuditProjection(),
    new PgIngressHistoryProjection(),
    new PgAllocationsProjection(),
  ];

  async apply(client: Queryable, write: CommittedWrite): Promise<void> {
    for (const projection of this.projections) await projection.apply(client, write);
  }
}
