// The shared write pipeline of every Service command: the pure step of a write (the command
// built from the live state when it depends on it, the decider, the answer) handed to the
// store's write port, which runs it inside its transaction, appends and projects; the caller and
// the change feed hear of it only after the commit that holds it.
import { ReplayedDraws } from './replayed-draws';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AllocationContext } from '../domain/allocation/allocation-context';
import { Decision, decide, DecisionContext } from '../domain/service.decider';
import { managerName } from '../domain/field-management';
import { InternalServerError, NotFoundError } from '../domain/errors/domain-errors';
import type { ServiceCommand } from '../domain/service.commands';
import type { Service } from '../domain/service.types';
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
    this.logger = logger.child({ context: 'ServiceCommandExecutor' });
  }

  /**
   * Runs one command. `verb`/`subresource` override the recorded verb (a PATCH records "patch").
   */
  execute(command: ServiceCommand, request: WriteRequestContext, verb = VERBS[command.kind]): Promise<WriteResult> {
    const name = command.kind === 'CreateService' ? (command.object.metadata.name ?? '') : command.name;
    const draws = new ReplayedDraws(this.ids);
    return this.written(this.store.write(command.namespace, name, (facts) => this.step(command, request, verb, facts, draws.rewind())));
  }

  /**
   * A write whose object is computed from the current one (PATCH, apply): the read, the
   * computation and the write happen in one transaction, so nothing can change in between. A
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
    const draws = new ReplayedDraws(this.ids);
    return this.written(
      this.store.write(namespace, name, (facts) => {
        if (!facts.state.object && !options.allowMissing) throw new NotFoundError('services', name);
        const command = build(facts.state.object, { now: facts.now, manager: managerName(request.fieldManager, request.userAgent) });
        return this.step(command, request, verb, facts, draws.rewind());
      }),
    );
  }

  private written(write: Promise<{ result: WriteResult; committed?: CommittedWrite }>): Promise<WriteResult> {
    return write.then(({ result, committed }) => {
      // Only now is the write durable; only now may watchers hear of it.
      if (committed) this.published(committed);
      return result;
    });
  }

  /** The pure part of a write, run by the store inside its transaction: decide, then answer. */
  private step(command: ServiceCommand, request: WriteRequestContext, verb: string, facts: StoredFacts, draws: ReplayedDraws): StepOutcome<WriteResult> {
    const { state, now } = facts;
    const decision = decide(command, state, { ...this.decisionContext(now, facts, draws), manager: managerName(request.fieldManager, request.userAgent) });
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
          verb,
          subresource: command.kind === 'ReplaceServiceStatus' ? 'status' : '',
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
    else this.feed.publish(write);
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
