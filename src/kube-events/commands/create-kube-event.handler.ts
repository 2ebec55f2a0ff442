import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AlreadyExistsError } from '../../domain/errors/domain-errors';
import { GENERATE_NAME_ATTEMPTS, generateName } from '../../domain/generate-name';
import { jsonCopy } from '../../domain/json-copy';
import type { CreateKubeEvent } from '../../domain/kube-event/kube-event.commands';
import { decideKubeEventCreate, eventsResource } from '../../domain/kube-event/kube-event.decider';
import { ID_FACTORY } from '../../shared/ids';
import type { IdFactory } from '../../shared/ids';
import type { WriteRequestContext } from '../../commands/write-result';
import { KubeEventsService } from '../kube-events.service';
import { CreateKubeEventCommand, type KubeEventWriteResult } from './kube-event.commands';
import { KubeEventWriteRunner } from './kube-event-write-runner';

/**
 * POST of an Event: a new incarnation of its name, refused while the name is live, or while a
 * derived Event holds it (names `<service>.<16 hex digits>` the log hands out). A name drawn from
 * metadata.generateName is drawn again on a collision.
 */
@CommandHandler(CreateKubeEventCommand)
export class CreateKubeEventHandler implements ICommandHandler<CreateKubeEventCommand> {
  constructor(
    private readonly writes: KubeEventWriteRunner,
    private readonly events: KubeEventsService,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
  ) {}

  async execute({ command, request }: CreateKubeEventCommand): Promise<KubeEventWriteResult> {
    const prefix = command.object.metadata.generateName;
    if (command.object.metadata.name || !prefix) return this.created(command, request);
    for (let attempt = 1; ; attempt++) {
      const object = jsonCopy(command.object);
      object.metadata.name = generateName(prefix, () => this.ids.random());
      try {
        return await this.created({ ...command, object, nameGenerated: true }, request);
      } catch (error) {
        if (!(error instanceof AlreadyExistsError) || attempt >= GENERATE_NAME_ATTEMPTS) throw error;
      }
    }
  }

  private async created(command: CreateKubeEvent, request: WriteRequestContext): Promise<KubeEventWriteResult> {
    const name = command.object.metadata.name ?? '';
    // A derived Event's name never changes hands: its position is in the log for good.
    if (name && (await this.events.isDerivedName(command.namespace, name))) throw new AlreadyExistsError(eventsResource(command.api), name);
    return this.writes.run({ namespace: command.namespace, name, verb: 'create', decide: (state, context) => decideKubeEventCreate(command, state, context) }, request);
  }
}
