import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AlreadyExistsError } from '../domain/errors/domain-errors';
import { GENERATE_NAME_ATTEMPTS, generateName } from '../domain/generate-name';
import { ID_FACTORY } from '../shared/ids';
import type { IdFactory } from '../shared/ids';
import { ServiceCommandExecutor } from './service-command-executor';
import { CreateServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';
import { jsonCopy } from '../domain/json-copy';

@CommandHandler(CreateServiceCommand)
export class CreateServiceHandler implements ICommandHandler<CreateServiceCommand> {
  constructor(
    private readonly executor: ServiceCommandExecutor,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
  ) {}

  async execute({ command, request }: CreateServiceCommand): Promise<WriteResult> {
    const prefix = command.object.metadata.generateName;
    if (command.object.metadata.name || !prefix) return this.executor.execute(command, request);
    // generateName: a collision is retried with a fresh suffix, as kube-apiserver does.
    for (let attempt = 1; ; attempt++) {
      const object = jsonCopy(command.object);
      object.metadata.name = generateName(prefix, () => this.ids.random());
      try {
        return await this.executor.execute({ ...command, object, nameGenerated: true }, request);
      } catch (error) {
        if (!(error instanceof AlreadyExistsError) || attempt >= GENERATE_NAME_ATTEMPTS) throw error;
      }
    }
  }
}
