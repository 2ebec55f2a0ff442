// The shared write pipeline of every Service command: one IMMEDIATE transaction that loads the
// live state from the current-object projection, runs the pure decider, appends the events and
// applies the inline projections; the change feed hears of it only after commit.
import { Inject, Injectable } from '@nestjs/common';
import type { AllocationContext } from '../domain/allocation/allocation-context';
import { Decision, decide, DecisionContext } from '../domain/service.decider';
import type { ServiceCommand } from '../domain/service.commands';
import { evolveAll, ServiceState } from '../domain/service.evolve';
import { ChangeFeed } from '../feed/change-feed';
import type { CommittedWrite } from '../projections/projection';
import { Projector } from '../projections/projector';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { ID_FACTORY } from '../shared/ids';
import type { IdFactory } from '../shared/ids';
import { ClusterNetwork } from '../config/cluster-network';
import { SqliteEventStore } from '../store/event-store';
import type { DatabaseHandle } from '../store/database';
import { ServiceRepository } from '../store/service-repository';
import { DATABASE } from '../store/store.tokens';
import type { WriteRequestContext, WriteResult } from './write-result';

const VERBS: Record<ServiceCommand['kind'], string> = {
  CreateService: 'create',
  ReplaceService: 'update',
  ReplaceServiceStatus: 'update',
  DeleteService: 'delete',
};

@Injectable()
export class ServiceCommandExecutor {
  constructor(
    @Inject(DATABASE) private readonly handle: DatabaseHandle,
    private readonly eventStore: SqliteEventStore,
    private readonly repository: ServiceRepository,
    private readonly projector: Projector,
    private readonly feed: ChangeFeed,
    private readonly network: ClusterNetwork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
  ) {}

  /**
   * Runs one command. `verb`/`subresource` override the recorded verb (a PATCH records "patch").
   */
  execute(command: ServiceCommand, request: WriteRequestContext, verb = VERBS[command.kind]): WriteResult {
    const name = command.kind === 'CreateService' ? (command.object.metadata.name ?? '') : command.name;
    let committed: CommittedWrite | undefined;
    const result = this.handle.sqlite
      .transaction((): WriteResult => {
        const state = this.repository.loadLive(command.namespace, name);
        const now = this.clock.now();
        const decision = decide(command, state, this.decisionContext(now));
        if (decision.events.length === 0 || request.dryRun) return this.answer(decision, state, 0);
        const streamId = decision.created
          ? (decision.events[0].type === 'ServiceCreated' ? decision.events[0].data.object.metadata.uid! : '')
          : state.object!.metadata.uid!;
        const expectedVersion = decision.created ? 0 : state.streamVersion;
        const before: ServiceState = decision.created ? { object: null, streamVersion: 0, deleted: false } : state;
        const recorded = this.eventStore.append({
          streamId,
          namespace: command.namespace,
          name,
          expectedVersion,
          events: decision.events,
          metadata: {
            user: request.user,
            groups: request.groups,
            userAgent: request.userAgent,
            fieldManager: request.fieldManager,
            requestId: request.requestId,
            verb,
            subresource: command.kind === 'ReplaceServiceStatus' ? 'status' : '',
            recordedAt: now.toISOString(),
          },
        });
        const resourceVersion = recorded[0].resourceVersion;
        const after = evolveAll(before, decision.events, resourceVersion);
        committed = {
          resourceVersion,
          streamId,
          namespace: command.namespace,
          name,
          events: recorded,
          metadata: recorded[0].metadata,
          before,
          after,
        };
        this.projector.apply(committed);
        return this.answer(decision, before, resourceVersion, after);
      })
      .immediate();
    if (committed) this.feed.publish(committed);
    return result;
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
  private decisionContext(now: Date): DecisionContext {
    const allocation: AllocationContext = {
      clusterIPRange: this.network.clusterIPRange,
      nodePortRange: this.network.nodePortRange,
      isClusterIPAllocated: (ip) => this.repository.clusterIPHolder(ip) !== undefined,
      isNodePortAllocated: (port) => this.repository.nodePortHolder(port) !== undefined,
      random: () => this.ids.random(),
    };
    return { now, newUid: () => this.ids.newUid(), allocation };
  }
}
