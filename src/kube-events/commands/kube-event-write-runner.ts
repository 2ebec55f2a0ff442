// What every Event write shares (as ServiceWriteRunner for Services): the handler's decision run
// as a step through the Event store's write port, with the writer's field ownership (the
// request's field manager, FieldManager.Update for the API version written through), the fact
// recorded with who wrote it and its TTL lease, the answer, and the change feed told only after
// the commit that holds it.
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ReplayedDraws } from '../../commands/replayed-draws';
import type { WriteRequestContext } from '../../commands/write-result';
import { kubeEventManagedKind, managerName, updateManagedFields } from '../../domain/field-management';
import type { KubeEventDecision, KubeEventDecisionContext } from '../../domain/kube-event/kube-event.decider';
import { evolveKubeEvent, initialKubeEventState, servedKubeEvent, type KubeEventState } from '../../domain/kube-event/kube-event.evolve';
import { ChangeFeed } from '../../feed/change-feed';
import { COMMIT_PUBLISHER } from '../../feed/commit-publisher';
import type { CommitPublisher } from '../../feed/commit-publisher';
import { LOGGER } from '../../observability/logging.module';
import { ID_FACTORY } from '../../shared/ids';
import type { IdFactory } from '../../shared/ids';
import type { CommittedEventWrite } from '../../store/ports/committed-event-write';
import { KUBE_EVENT_WRITE_STORE } from '../../store/ports/kube-event-write-store';
import type { KubeEventFacts, KubeEventStepOutcome, KubeEventWriteStore } from '../../store/ports/kube-event-write-store';
import { formatTime } from '../../domain/service.decider';
import type { KubeEventWriteResult } from './kube-event.commands';

/** One Event write as its handler defines it: which Event, the verb recorded, and what it decides. */
export interface KubeEventWrite {
  namespace: string;
  name: string;
  /** Recorded with the fact: "create", "update", "patch" or "delete". */
  verb: string;
  /** The decision on the live state, pure: it may throw (nothing is stored) and may run more than once. */
  decide(state: KubeEventState, context: KubeEventDecisionContext): KubeEventDecision;
}

@Injectable()
export class KubeEventWriteRunner {
  private readonly logger: Logger;
  private readonly ttlSeconds: number | undefined;

  constructor(
    @Inject(KUBE_EVENT_WRITE_STORE) private readonly store: KubeEventWriteStore,
    private readonly feed: ChangeFeed,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) logger: Logger,
    @Optional() @Inject(COMMIT_PUBLISHER) private readonly publisher?: CommitPublisher,
  ) {
    this.logger = logger.child({ context: 'KubeEventWriteRunner' });
    this.ttlSeconds = config.eventTtlSeconds;
  }

  async run(write: KubeEventWrite, request: WriteRequestContext): Promise<KubeEventWriteResult> {
    const draws = new ReplayedDraws(this.ids);
    const { result, committed } = await this.store.write(write.namespace, write.name, (facts) => this.step(write, request, facts, draws.rewind()));
    // Only now is the write durable; only now may watchers hear of it.
    if (committed) this.published(committed);
    return result;
  }

  private step(write: KubeEventWrite, request: WriteRequestContext, facts: KubeEventFacts, draws: ReplayedDraws): KubeEventStepOutcome<KubeEventWriteResult> {
    const { state, now } = facts;
    const manager = managerName(request.fieldManager, request.userAgent);
    const decision = write.decide(state, {
      now,
      newUid: () => draws.newUid(),
      ttlSeconds: this.ttlSeconds,
      managedFields: (live, updated, api) => updateManagedFields({ live, updated, manager, subresource: '', now: formatTime(now) }, kubeEventManagedKind(api)),
    });
    const [fact] = decision.facts;
    if (!fact || request.dryRun) return { finish: () => dryAnswer(decision, state) };
    const before = decision.created ? initialKubeEventState : state;
    return {
      append: {
        streamId: decision.created ? fact.data.object.metadata.uid! : state.object!.metadata.uid!,
        expectedVersion: before.streamVersion,
        fact,
        before,
        metadata: {
          user: request.user,
          groups: request.groups,
          userAgent: request.userAgent,
          fieldManager: request.fieldManager,
          requestId: request.requestId,
          verb: write.verb,
          subresource: '',
          recordedAt: now.toISOString(),
        },
      },
      finish: (committed) => {
        const after = committed!.after;
        if (after.object) return { object: after.object, json: committed!.objectJson ?? undefined, created: decision.created, ended: false };
        return { object: servedKubeEvent(fact.data.object, committed!.resourceVersion), created: false, ended: true };
      },
    };
  }

  private published(write: CommittedEventWrite): void {
    const m = write.metadata;
    this.logger.info(
      {
        requestId: m.requestId,
        user: m.user,
        verb: m.verb,
        namespace: write.namespace,
        name: write.name,
        uid: write.streamId,
        resourceVersion: write.resourceVersion,
        events: [write.events[0].event.type],
      },
      'write committed',
    );
    if (this.publisher) this.publisher.committed(write);
    else {
      this.feed.committedHere(write);
      this.feed.publish(write);
    }
  }
}

/** A write that stores nothing (a no-op, a dry run): what it would leave. */
function dryAnswer(decision: KubeEventDecision, state: KubeEventState): KubeEventWriteResult {
  const [fact] = decision.facts;
  if (!fact) return { object: decision.unchanged ?? state.object!, created: false, ended: false };
  const rv = state.object?.metadata.resourceVersion;
  if (decision.ended) return { object: state.object!, created: false, ended: true };
  const folded = evolveKubeEvent(state, fact, 0).object!;
  // A dry run keeps the stored resourceVersion (a creation has none).
  const { resourceVersion: _unset, ...metadata } = folded.metadata;
  return { object: { ...folded, metadata: rv ? { ...metadata, resourceVersion: rv } : metadata }, created: decision.created, ended: false };
}
