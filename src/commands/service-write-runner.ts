// What every Service write shares, whatever its command: the handler's decision run as a step
// through the store's write port (which runs it inside its transaction, appends and projects),
// the events recorded with who wrote them, the answer, and the change feed told only after the
// commit that holds the write. What a write decides is its handler's (src/commands/*.handler.ts).
import { ReplayedDraws } from './replayed-draws';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AllocationContext } from '../domain/allocation/allocation-context';
import type { Decision, DecisionContext } from '../domain/service.decider';
import { managerName } from '../domain/field-management';
import { InternalServerError } from '../domain/errors/domain-errors';
import { evolveAll, initialServiceState, ServiceState } from '../domain/service.evolve';
import { ChangeFeed } from '../feed/change-feed';
import { COMMIT_PUBLISHER } from '../feed/commit-publisher';
import type { CommitPublisher } from '../feed/commit-publisher';
import type { CommittedWrite } from '../store/ports/committed-write';
import { ID_FACTORY } from '../shared/ids';
import type { IdFactory } from '../shared/ids';
import { ClusterNetwork } from '../config/cluster-network';
import { LOGGER } from '../observability/logging.module';
import { SERVICE_WRITE_STORE } from '../store/ports/service-write-store';
import type { ServiceWriteStore, StepOutcome, StoredFacts } from '../store/ports/service-write-store';
import type { WriteRequestContext, WriteResult } from './write-result';

/** What a write's decision is given: the decider's context, with the writer's field manager always known. */
export type WriteContext = DecisionContext & { manager: string };

/** One write as its handler defines it: which Service, how it is recorded, and what it decides. */
export interface ServiceWrite {
  namespace: string;
  name: string;
  /** Recorded with the events: "create", "update", "patch" or "delete". */
  verb: string;
  subresource: '' | 'status';
  /**
   * The decision on the live state, pure: it may throw a domain error (nothing is stored), and
   * may run more than once in one write (an engine that fetched facts it asked for runs it again).
   */
  decide(state: ServiceState, context: WriteContext): Decision;
}

/** The new object's uid names its stream; a creation without one is a bug, never an empty stream id. */
function createdUid(decision: Decision): string {
  const first = decision.events[0];
  const uid = first.type === 'ServiceCreated' ? first.data.object.metadata.uid : undefined;
  if (!uid) throw new InternalServerError('a created Service has no uid');
  return uid;
}

@Injectable()
export class ServiceWriteRunner {
  private readonly logger: Logger;

  constructor(
    @Inject(SERVICE_WRITE_STORE) private readonly store: ServiceWriteStore,
    private readonly feed: ChangeFeed,
    private readonly network: ClusterNetwork,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
    @Inject(LOGGER) logger: Logger,
    /** The engine's way to the feed; straight to `feed` when none is given (a single writer). */
    @Optional() @Inject(COMMIT_PUBLISHER) private readonly publisher?: CommitPublisher,
  ) {
    this.logger = logger.child({ context: 'ServiceWriteRunner' });
  }

  /**
   * Runs one write: its decision is made on the live state inside the store's write, so nothing
   * can change between the read, the decision and the append; answers once the write is durable.
   */
  async run(write: ServiceWrite, request: WriteRequestContext): Promise<WriteResult> {
    const draws = new ReplayedDraws(this.ids);
    const { result, committed } = await this.store.write(write.namespace, write.name, (facts) => this.step(write, request, facts, draws.rewind()));
    // Only now is the write durable; only now may watchers hear of it.
    if (committed) this.published(committed);
    return result;
  }

  /** The pure part of a write, run by the store inside its transaction: decide, then answer. */
  private step(write: ServiceWrite, request: WriteRequestContext, facts: StoredFacts, draws: ReplayedDraws): StepOutcome<WriteResult> {
    const { state, now } = facts;
    const decision = write.decide(state, { ...this.decisionContext(now, facts, draws), manager: managerName(request.fieldManager, request.userAgent) });
    if (decision.events.length === 0 || request.dryRun) return { finish: () => this.answer(decision, state, 0) };
    const before: ServiceState = decision.created ? initialServiceState : state;
    return {
      append: {
        streamId: decision.created ? createdUid(decision) : state.object!.metadata.uid!,
        expectedVersion: before.streamVersion,
        events: decision.events,
        before,
        folded: decision.folded,
        metadata: {
          user: request.user,
          groups: request.groups,
          userAgent: request.userAgent,
          fieldManager: request.fieldManager,
          requestId: request.requestId,
          verb: write.verb,
          subresource: write.subresource,
          recordedAt: now.toISOString(),
        },
      },
      finish: (committed) => {
        const result = this.answer(decision, before, committed!.resourceVersion, committed!.after);
        if (result.object === committed!.after.object && committed!.objectJson !== null) result.json = committed!.objectJson;
        return result;
      },
    };
  }

  private published(write: CommittedWrite): void {
    const m = write.metadata;
    this.logger.info(
      {
        requestId: m.requestId,
        user: m.user,
        verb: m.verb,
        subresource: m.subresource || undefined,
        namespace: write.namespace,
        name: write.name,
        uid: write.streamId,
        resourceVersion: write.resourceVersion,
        events: write.events.map((e) => e.event.type),
      },
      'write committed',
    );
    if (this.publisher) this.publisher.committed(write);
    else {
      this.feed.committedHere(write);
      this.feed.publish(write);
    }
  }

  private answer(decision: Decision, before: ServiceState, resourceVersion: number, after?: ServiceState): WriteResult {
    if (decision.unchanged) return { object: decision.unchanged, created: false };
    if (after?.object) return { object: after.object, created: decision.created };
    // A dry run, or a write that ended in deletion: fold without storing to show the would-be object.
    const withoutDeletion = decision.events.filter((e) => e.type !== 'ServiceDeleted');
    const folded = evolveAll(before, withoutDeletion, resourceVersion).object!;
    if (resourceVersion === 0) {
      if (decision.created) delete folded.metadata.resourceVersion;
      else folded.metadata.resourceVersion = before.object!.metadata.resourceVersion;
    }
    return { object: folded, created: decision.created };
  }

  /** The allocation table as it is before this write, the object's own values included. */
  private decisionContext(now: Date, facts: StoredFacts, draws: ReplayedDraws): DecisionContext {
    const allocation: AllocationContext = {
      clusterIPRange: this.network.clusterIPRange,
      nodePortRange: this.network.nodePortRange,
      isClusterIPAllocated: (ip) => facts.clusterIPTaken(ip),
      isNodePortAllocated: (port) => facts.nodePortTaken(port),
      random: () => draws.random(),
    };
    return { now, newUid: () => draws.newUid(), allocation };
  }
}
