import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../domain/errors/domain-errors';
import type { AppliedOwnership, ServiceCommand } from '../domain/service.commands';
import type { Service } from '../domain/service.types';
import { appliedService } from '../patch/applied-service';
import { patchedService } from '../patch/patched-service';
import { ServiceCommandExecutor } from './service-command-executor';
import { PatchServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';

@CommandHandler(PatchServiceCommand)
export class PatchServiceHandler implements ICommandHandler<PatchServiceCommand> {
  constructor(private readonly executor: ServiceCommandExecutor) {}

  async execute({ namespace, name, subresource, patch, request }: PatchServiceCommand): Promise<WriteResult & { warnings: string[] }> {
    let warnings: string[] = [];
    const replace = (object: Service, extra: AppliedOwnership = {}): ServiceCommand =>
      subresource === 'status' ? { kind: 'ReplaceServiceStatus', namespace, name, object, ...extra } : { kind: 'ReplaceService', namespace, name, object, ...extra };
    if (patch.type === 'apply') {
      const result = await this.executor.executeOn(
        namespace,
        name,
        (current, write) => {
          // Apply creates a missing object (201); its /status cannot.
          if (!current && subresource === 'status') throw new NotFoundError('services', name);
          const applied = appliedService(current, patch, { ...write, subresource, namespace, name });
          warnings = applied.warnings;
          const appliedManagedFields = applied.managedFields;
          if (!current) {
            const object = { ...applied.object, metadata: { ...applied.object.metadata, name } };
            return { kind: 'CreateService', namespace, object, appliedManagedFields };
          }
          return replace(applied.object, { appliedManagedFields });
        },
        request,
        'patch',
        { allowMissing: true },
      );
      return { ...result, warnings };
    }
    const result = await this.executor.executeOn(
      namespace,
      name,
      (current) => {
        const patched = patchedService(current!, patch);
        warnings = patched.warnings;
        return replace(patched.object);
      },
      request,
      'patch',
    );
    return { ...result, warnings };
  }
}
