// The shared write pipeline of every Service command: inside the group-committed transaction
// (its own savepoint) it loads the live state from the current-object projection, runs the pure
// decider, appends the events and applies the inline projections; the caller and the change feed
// hear of it only after the COMMIT that holds it.
import { Inject, Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { AllocationContext } from '../domain/allocation/allocation-context';
import { Decision, decide, DecisionContext } from '../domain/service.decider';
import { managerName } from '../domain/field-management';
import { InternalServerError, NotFoundError } from '../domain/errors/domain-errors';
import type { ServiceCommand } from '../domain/service.commands';
import type { Service } from '../domain/service.types';
import { evolveAll, initialServiceState, ServiceState } from '../domain/service.evolve';
import { ChangeFeed } from '../feed/change-feed';
import type { CommittedWrite } from '../projections/projection';
import { foldWrite } from '../projections/committed-write';
import { Projector } from '../projections/projector';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { ID_FACTORY } from '../shared/ids';
import type { IdFactory } from '../shared/ids';
import { ClusterNetwork } from '../config/cluster-network';
import { SqliteEventStore } from '../store/event-store';
import { GroupCommitter } from '../store/group-commit';
import { ServiceRepository } from '../store/service-repository';
import type { WriteRequestContext, WriteResult } from './write-result';

/** The new object's uid names its stream; a creation without one is a bug, never an empty stream id. */
function createdUid(decision: Decision): string {
  const first = decision.events[0];
  const uid = first.type === 'ServiceCreated' ? first.data.object.metadata.uid : undefined;
  if (!uid) throw new InternalServerError('a created Service has no uid');
  return uid;
}

/** When a computed write happens and who makes it (the time and manager of its managedFields). */
export interface WriteMoment {
  now: Date;
  manager: string;
}

const VERBS: Record<ServiceCommand['kind'], string> = {
  CreateService: 'create',
  ReplaceService: 'update',
  ReplaceServiceStatus: 'update',
  DeleteService: 'delete',
};

@Injectable()
export class ServiceCommandExecutor {
  constructor(
    private readonly committer: GroupCommitter,
    private readonly eventStore: SqliteEventStore,
    private readonly repository: ServiceRepository,
    private readonly projector: Projector,
    private readonly feed: ChangeFeed,
    private readonly network: ClusterNetwork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
    @InjectPinoLogger('ServiceCommandExecutor') private readonly logger: PinoLogger,
  ) {}

  /**
   * Runs one command. `verb`/`subresource` override the recorded verb (a PATCH records "patch").
   */
  execute(command: ServiceCommand, request: WriteRequestContext, verb = VERBS[command.kind]): Promise<WriteResult> {
    return this.committer
      .run(() => this.apply(command, request, verb))
      .then(({ result, committed }) => {
        // Only now is the write durable; only now may watchers hear of it.
        if (committed) this.published(committed);
        return result;
      });
  }

  /**
   * A write whose object is computed from the current one (PATCH, apply): the read, the
   * computation and the write happen in one savepoint, so nothing can change in between. A
   * missing object is 404, unless `allowMissing` (apply creates): then `build` gets null.
   */
  executeOn(
    namespace: string,
    name: string,
    build: (current: Service | null, write: WriteMoment) => ServiceCommand,
    request: WriteRequestContext,
    verb: string,
    options: { allowMissing?: boolean } = {},
  ): Promise<WriteResult> {
    return this.committer
      .run(() => {
        const state = this.repository.loadLive(namespace, name);
        if (!state.object && !options.allowMissing) throw new NotFoundError('services', name);
        const now = this.eventStore.recordingTime(this.clock.now());
        return this.apply(build(state.object, { now, manager: managerName(request.fieldManager, request.userAgent) }), request, verb, state, now);
      })
      .then(({ result, committed }) => {
        if (committed) this.published(committed);
        return result;
      });
  }

  /** Runs inside the shared transaction, in its own savepoint: load, decide, append, project. */
  private apply(
    command: ServiceCommand,
    request: WriteRequestContext,
    verb: string,
    loaded?: ServiceState,
    at?: Date,
  ): { result: WriteResult; committed?: CommittedWrite } {
    const name = command.kind === 'CreateService' ? (command.object.metadata.name ?? '') : command.name;
    const state = loaded ?? this.repository.loadLive(command.namespace, name);
    const now = at ?? this.eventStore.recordingTime(this.clock.now());
    const decision = decide(command, state, { ...this.decisionContext(now), manager: managerName(request.fieldManager, request.userAgent) });
    if (decision.events.length === 0 || request.dryRun) return { result: this.answer(decision, state, 0) };
    const streamId = decision.created ? createdUid(decision) : state.object!.metadata.uid!;
    const before: ServiceState = decision.created ? initialServiceState : state;
    const recorded = this.eventStore.append({
      streamId,
      namespace: command.namespace,
      name,
      expectedVersion: before.streamVersion,
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
    const committed = foldWrite(before, recorded, decision.folded);
    this.projector.apply(committed);
    const result = this.answer(decision, before, committed.resourceVersion, committed.after);
    if (result.object === committed.after.object && committed.objectJson !== null) result.json = committed.objectJson;
    return { result, committed };
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
    this.feed.publish(write);
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
