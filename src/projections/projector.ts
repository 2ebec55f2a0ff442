// Runs every projection, in a fixed order, for one committed write: the Services' projections
// for a Service write, the Events' for an Event write.
import type { DatabaseHandle } from '../store/database';
import type { CommittedEventWrite } from '../store/ports/committed-event-write';
import type { CommittedWrite } from '../store/ports/committed-write';
import type { RevisionTextForm } from '../store/revision-texts';
import { AllocationsProjection } from './allocations.projection';
import { ConditionAuditProjection } from './condition-audit.projection';
import { CurrentObjectProjection } from './current-object.projection';
import { IngressHistoryProjection } from './ingress-history.projection';
import { KubeEventOccurrencesProjection } from './kube-event-occurrences.projection';
import { LiveKubeEventsProjection } from './live-kube-events.projection';
import type { Projection } from './projection';
import { ServiceRevisionsProjection } from './service-revisions.projection';

export class Projector {
  readonly projections: readonly Projection[];
  readonly eventProjections: readonly Projection<CommittedEventWrite>[];

  /** `revisionTexts`: how revisions store their texts (default: as every store holds them). */
  constructor(handle: DatabaseHandle, revisionTexts?: RevisionTextForm) {
    this.projections = [
      new CurrentObjectProjection(handle),
      new ServiceRevisionsProjection(handle, revisionTexts),
      new ConditionAuditProjection(handle),
      new IngressHistoryProjection(handle),
      new AllocationsProjection(handle),
    ];
    this.eventProjections = [new LiveKubeEventsProjection(handle), new KubeEventOccurrencesProjection(handle)];
  }

  /** Every table a projection owns (replay empties and refills them all). */
  get tables(): string[] {
    return [...this.projections, ...this.eventProjections].flatMap((p) => p.tables);
  }

  apply(write: CommittedWrite): void {
    for (const projection of this.projections) projection.apply(write);
  }

  applyEvent(write: CommittedEventWrite): void {
    for (const projection of this.eventProjections) projection.apply(write);
  }
}
