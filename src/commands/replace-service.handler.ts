import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideReplace } from '../domain/service.decider';
import { ServiceWriteRunner } from './service-write-runner';
import { ReplaceServiceCommand } from './service.commands';
import type { WriteResult } from './write-result';

/**
 * PUT on a Service: the body replaces the live object of the name on the URL (kube-apiserver's
 * update strategy, allocations kept or made), and creates it when there is none
 * (AllowCreateOnUpdate: 201, the name's new incarnation).
 */
@CommandHandler(ReplaceServiceCommand)
export class ReplaceServiceHandler implements ICommandHandler<ReplaceServiceCommand> {
  constructor(private readonly writes: ServiceWriteRunner) {}

  async execute({ command, request, verb }: ReplaceServiceCommand): Promise<WriteResult> {
    return this.writes.run({ namespace: command.namespace, name: command.name, verb, subresource: '', decide: (state, context) => decideReplace(command, state, context) }, request);
  }
}
