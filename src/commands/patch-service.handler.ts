import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../domain/errors/domain-errors';
import type { AppliedOwnership } from '../domain/service.commands';
import { decideCreate, decideReplace, decideReplaceStatus } from '../domain/service.decider';
import type { Decision } from '../domain/service.decider';
import type { ServiceState } from '../domain/service.evolve';
import type { Service } from '../domain/service.types';
import { appliedService } from '../patch/applied-service';
import { patchedService } from '../patch/patched-service';
import { ServiceWriteRunner } from './service-write-runner';
import type { WriteContext } from './service-write-runner';
import { PatchServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';

/**
 * PATCH on a Service or its /status: the patch is applied to the live object inside the write, so
 * nothing can change between the read, the patch and the append, and the patched object is then
 * decided as a PUT of it (recorded as "patch"). A missing Service is 404, except that server-side
 * apply creates it (201; its /status cannot). The answer carries the patch's warnings.
 */
@CommandHandler(PatchServiceCommand)
export class PatchServiceHandler implements ICommandHandler<PatchServiceCommand> {
  constructor(private readonly writes: ServiceWriteRunner) {}

  async execute({ namespace, name, subresource, patch, request }: PatchServiceCommand): Promise<WriteResult & { warnings: string[] }> {
    let warnings: string[] = [];
    const replaced = (object: Service, state: ServiceState, context: WriteContext, extra: AppliedOwnership = {}): Decision =>
      subresource === 'status'
        ? decideReplaceStatus({ kind: 'ReplaceServiceStatus', namespace, name, object, ...extra }, state, context)
        : decideReplace({ kind: 'ReplaceService', namespace, name, object, ...extra }, state, context);
    const decide = (state: ServiceState, context: WriteContext): Decision => {
      const current = state.object;
      // Apply creates a missing object (201); its /status cannot, and no other patch can.
      if (!current && (patch.type !== 'apply' || subresource === 'status')) throw new NotFoundError('services', name);
      if (patch.type !== 'apply') {
        const patched = patchedService(current!, patch);
        warnings = patched.warnings;
        return replaced(patched.object, state, context);
      }
      const applied = appliedService(current, patch, { now: context.now, manager: context.manager, subresource, namespace, name });
      warnings = applied.warnings;
      const appliedManagedFields = applied.managedFields;
      if (!current) {
        const object = { ...applied.object, metadata: { ...applied.object.metadata, name } };
        return decideCreate({ kind: 'CreateService', namespace, object, appliedManagedFields }, state, context);
      }
      return replaced(applied.object, state, context, { appliedManagedFields });
    };
    const result = await this.writes.run({ namespace, name, verb: 'patch', subresource, decide }, request);
    return { ...result, warnings };
  }
}
