import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ServiceCommandExecutor } from './service-command-executor';
import { ReplaceServiceStatusCommand } from './service.commands';
import type { WriteResult } from './write-result';

@CommandHandler(ReplaceServiceStatusCommand)
export class ReplaceServiceStatusHandler implements ICommandHandler<ReplaceServiceStatusCommand> {
  constructor(private readonly executor: ServiceCommandExecutor) {}

  async execute({ command, request, verb }: ReplaceServiceStatusCommand): Promise<WriteResult> {
    return this.executor.execute(command, request, verb);
  }
}
