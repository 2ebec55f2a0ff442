// Records what the Events' reflector observed (the source's Events about Services) through the
// Events' write port, as ObservedWriteRecorder does for Services: the store runs the pure decision
// (decideObservedKubeEvent) on the live Event inside its transaction, appends the one fact with
// where it came from, moves the Events' resume point in the same transaction, and the change feed
// hears of the write only after its commit. No TTL lease: the source's DELETED ends the Event.
import { Inject, Injectable } from '@nestjs/common';
import { decideObservedKubeEvent, decideObservedKubeEventDeletion } from '../domain/mirror/observed-kube-event-change';
import { initialKubeEventState } from '../domain/kube-event/kube-event.evolve';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { COMMIT_PUBLISHER } from '../feed/commit-publisher';
import type { CommitPublisher } from '../feed/commit-publisher';
import { KUBE_EVENT_WRITE_STORE } from '../store/ports/kube-event-write-store';
import type { KubeEventFacts, KubeEventStepOutcome, KubeEventWriteStore } from '../store/ports/kube-event-write-store';
import { AuditJoin } from './audit-join';
import { writeObservation } from './observation-write';
import type { Observation, ObservationRecorder, RecordOutcome } from './observation';

@Injectable()
export class ObservedKubeEventRecorder implements ObservationRecorder<KubeEvent> {
  constructor(
    @Inject(KUBE_EVENT_WRITE_STORE) private readonly store: KubeEventWriteStore,
    @Inject(COMMIT_PUBLISHER) private readonly publisher: CommitPublisher,
    private readonly audit: AuditJoin,
  ) {}

  record(observation: Observation<KubeEvent>): Promise<RecordOutcome> {
    return writeObservation(observation, (namespace, name) => this.store.write(namespace, name, (facts) => this.step(observation, facts)), this.publisher, this.audit);
  }

  private step(observation: Observation<KubeEvent>, facts: KubeEventFacts): KubeEventStepOutcome<{ again: boolean }> {
    if (observation.kind === 'position') return { resume: observation.resume, finish: () => ({ again: false }) };
    const decision = observation.kind === 'object' ? decideObservedKubeEvent(facts.state, observation.object) : decideObservedKubeEventDeletion(facts.state, observation.lastKnown);
    // The resume point moves with the write that completes the observation, not with the ending before it.
    const resume = decision.replaced ? undefined : observation.resume;
    if (!decision.fact) return { resume, finish: () => ({ again: false }) };
    const before = decision.created ? initialKubeEventState : facts.state;
    return {
      resume,
      append: {
        streamId: decision.streamId,
        expectedVersion: before.streamVersion,
        fact: decision.fact,
        before,
        metadata: {
          // Who wrote is not known until an audit event says; the field manager is a hint.
          user: '',
          groups: [],
          userAgent: '',
          fieldManager: decision.fieldManager,
          requestId: '',
          verb: decision.verb,
          subresource: '',
          recordedAt: facts.now.toISOString(),
        },
        observation: { sourceResourceVersion: observation.sourceResourceVersion, via: observation.via, observedAt: observation.observedAt },
      },
      finish: () => ({ again: decision.replaced }),
    };
  }
}
