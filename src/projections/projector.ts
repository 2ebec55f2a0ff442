// Runs every projection, in a fixed order, for one committed write.
import type { DatabaseHandle } from '../store/database';
import { AllocationsProjection } from './allocations.projection';
import { ConditionAuditProjection } from './condition-audit.projection';
import { CurrentObjectProjection } from './current-object.projection';
import { IngressHistoryProjection } from './ingress-history.projection';
import type { Projection } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';
import { ServiceRevisionsProjection } from './service-revisions.projection';

export class Projector {
  readonly projections: readonly Projection[];

  constructor(handle: DatabaseHandle) {
    this.projections = [
      new CurrentObjectProjection(handle),
      new ServiceRevisionsProjection(handle),
      new ConditionAuditProjection(handle),
      new IngressHistoryProjection(handle),
      new AllocationsProjection(handle),
    ];
  }

  apply(write: CommittedWrite): void {
    for (const projection of this.projections) projection.apply(write);
  }
}
