// Runs every projection, in a fixed order, for one committed write.
import type { DatabaseHandle } from '../store/database';
import { AllocationsProjection } from './allocations.projection';
import { ConditionAuditProjection } from './condition-audit.projection';
import { CurrentObjectProjection } from './current-object.projection';
import { IngressHistoryProjection } from './ingress-history.projection';
import type { Projection } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';
import { ServiceRevisionsProjection } from './service-revisions.projection';
import type { RevisionTextForm } from '../store/revision-texts';

export class Projector {
  readonly projections: readonly Projection[];

  /** `revisionTexts`: how revisions store their texts (default: as every store holds them). */
  constructor(handle: DatabaseHandle, revisionTexts?: RevisionTextForm) {
    this.projections = [
      new CurrentObjectProjection(handle),
      new ServiceRevisionsProjection(handle, revisionTexts),
      new ConditionAuditProjection(handle),
      new IngressHistoryProjection(handle),
      new AllocationsProjection(handle),
    ];
  }

  apply(write: CommittedWrite): void {
    for (const projection of this.projections) projection.apply(write);
  }
}
