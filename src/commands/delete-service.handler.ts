import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ServiceCommandExecutor } from './service-command-executor';
import { DeleteServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';

@CommandHandler(DeleteServiceCommand)
export class DeleteServiceHandler implements ICommandHandler<DeleteServiceCommand> {
  constructor(private readonly executor: ServiceCommandExecutor) {}

  async execute({ command, request }: DeleteServiceCommand): Promise<WriteResult> {
    return this.executor.execute(command, request);
  }
}
