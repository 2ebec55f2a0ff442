// Records what the Services' reflector observed through the ordinary write port: the store runs the pure
// decision (decideObserved) inside its transaction on the live state, appends the events with
// where they came from, moves the resume point in the same transaction, and the change feed
// hears of the write only after its commit — exactly as for a direct write.
import { Inject, Injectable } from '@nestjs/common';
import { decideObserved, decideObservedDeletion } from '../domain/mirror/observed-change';
import type { ObservedDecision } from '../domain/mirror/observed-change';
import { initialServiceState } from '../domain/service.evolve';
import type { Service } from '../domain/service.types';
import { COMMIT_PUBLISHER } from '../feed/commit-publisher';
import type { CommitPublisher } from '../feed/commit-publisher';
import { SERVICE_WRITE_STORE } from '../store/ports/service-write-store';
import type { ServiceWriteStore, StepOutcome, StoredFacts } from '../store/ports/service-write-store';
import { AuditJoin } from './audit-join';
import { writeObservation } from './observation-write';
import type { Observation, ObservationRecorder, RecordOutcome } from './observation';

@Injectable()
export class ObservedWriteRecorder implements ObservationRecorder<Service> {
  constructor(
    @Inject(SERVICE_WRITE_STORE) private readonly store: ServiceWriteStore,
    @Inject(COMMIT_PUBLISHER) private readonly publisher: CommitPublisher,
    private readonly audit: AuditJoin,
  ) {}

  record(observation: Observation<Service>): Promise<RecordOutcome> {
    return writeObservation(observation, (namespace, name) => this.store.write(namespace, name, (facts) => this.step(observation, facts)), this.publisher, this.audit);
  }

  private step(observation: Observation<Service>, facts: StoredFacts): StepOutcome<{ again: boolean }> {
    if (observation.kind === 'position') return { resume: observation.resume, finish: () => ({ again: false }) };
    const decision: ObservedDecision = observation.kind === 'object' ? decideObserved(facts.state, observation.object) : decideObservedDeletion(facts.state, observation.lastKnown);
    // The resume point moves with the write that completes the observation, not with the deletion before it.
    const resume = decision.replaced ? undefined : observation.resume;
    if (decision.events.length === 0) return { resume, finish: () => ({ again: false }) };
    const before = decision.created ? initialServiceState : facts.state;
    return {
      resume,
      append: {
        streamId: decision.streamId,
        expectedVersion: before.streamVersion,
        events: decision.events,
        before,
        folded: decision.folded,
        metadata: {
          // Who wrote is not known until an audit event says; the field manager is a hint.
          user: '',
          groups: [],
          userAgent: '',
          fieldManager: decision.fieldManager,
          requestId: '',
          verb: decision.verb,
          subresource: decision.subresource,
          recordedAt: facts.now.toISOString(),
        },
        observation: { sourceResourceVersion: observation.sourceResourceVersion, via: observation.via, observedAt: observation.observedAt },
      },
      finish: () => ({ again: decision.replaced }),
    };
  }
}
