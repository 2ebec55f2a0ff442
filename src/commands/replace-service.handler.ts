import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ServiceCommandExecutor } from './service-command-executor';
import { ReplaceServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';

@CommandHandler(ReplaceServiceCommand)
export class ReplaceServiceHandler implements ICommandHandler<ReplaceServiceCommand> {
  constructor(private readonly executor: ServiceCommandExecutor) {}

  async execute({ command, request, verb }: ReplaceServiceCommand): Promise<WriteResult> {
    return this.executor.execute(command, request, verb);
  }
}
