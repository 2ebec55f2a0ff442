import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { patchedService } from '../patch/patched-service';
import { ServiceCommandExecutor } from './service-command-executor';
import { PatchServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';

@CommandHandler(PatchServiceCommand)
export class PatchServiceHandler implements ICommandHandler<PatchServiceCommand> {
  constructor(private readonly executor: ServiceCommandExecutor) {}

  async execute({ namespace, name, subresource, patch, request }: PatchServiceCommand): Promise<WriteResult & { warnings: string[] }> {
    let warnings: string[] = [];
    const result = await this.executor.executeOn(
      namespace,
      name,
      (current) => {
        const patched = patchedService(current, patch);
        warnings = patched.warnings;
        return subresource === 'status'
          ? { kind: 'ReplaceServiceStatus', namespace, name, object: patched.object }
          : { kind: 'ReplaceService', namespace, name, object: patched.object };
      },
      request,
      'patch',
    );
    return { ...result, warnings };
  }
}
