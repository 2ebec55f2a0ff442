import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideDelete } from '../domain/service.decider';
import { ServiceWriteRunner } from './service-write-runner';
import { DeleteServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';

/**
 * DELETE of one Service: its preconditions (uid, resourceVersion) checked against the live
 * object, then gone at once, or marked deleting while finalizers remain (the last one removed by
 * an update completes it); the answer is the object as it was deleted.
 */
@CommandHandler(DeleteServiceCommand)
export class DeleteServiceHandler implements ICommandHandler<DeleteServiceCommand> {
  constructor(private readonly writes: ServiceWriteRunner) {}

  async execute({ command, request }: DeleteServiceCommand): Promise<WriteResult> {
    return this.writes.run({ namespace: command.namespace, name: command.name, verb: 'delete', subresource: '', decide: (state, context) => decideDelete(command, state, context) }, request);
  }
}
