import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AlreadyExistsError } from '../domain/errors/domain-errors';
import { GENERATE_NAME_ATTEMPTS, generateName } from '../domain/generate-name';
import type { CreateService } from '../domain/service.commands';
import { decideCreate } from '../domain/service.decider';
import { ID_FACTORY } from '../shared/ids';
import type { IdFactory } from '../shared/ids';
import { ServiceWriteRunner } from './service-write-runner';
import { CreateServiceCommand } from './service.commands';
import type { WriteRequestContext, WriteResult } from './write-result';
import { jsonCopy } from '../domain/json-copy';

/**
 * POST of a Service: a new incarnation of its name (uid, creation time, cluster IP and node ports
 * allocated), refused while the name is live. A name generated from metadata.generateName is
 * drawn again on a collision.
 */
@CommandHandler(CreateServiceCommand)
export class CreateServiceHandler implements ICommandHandler<CreateServiceCommand> {
  constructor(
    private readonly writes: ServiceWriteRunner,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
  ) {}

  async execute({ command, request }: CreateServiceCommand): Promise<WriteResult> {
    const prefix = command.object.metadata.generateName;
    if (command.object.metadata.name || !prefix) return this.created(command, request);
    // generateName: a collision is retried with a fresh suffix, as kube-apiserver does.
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

  private created(command: CreateService, request: WriteRequestContext): Promise<WriteResult> {
    const name = command.object.metadata.name ?? '';
    return this.writes.run({ namespace: command.namespace, name, verb: 'create', subresource: '', decide: (state, context) => decideCreate(command, state, context) }, request);
  }
}
