import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideReplaceStatus } from '../domain/service.decider';
import { ServiceWriteRunner } from './service-write-runner';
import { ReplaceServiceStatusCommand } from './service.commands';
import type { WriteResult } from './write-result';

/**
 * PUT on /status: only metadata and status are taken from the body (the spec stays the live
 * one's), recorded on the "status" subresource; /status never creates, a missing Service is 404.
 */
@CommandHandler(ReplaceServiceStatusCommand)
export class ReplaceServiceStatusHandler implements ICommandHandler<ReplaceServiceStatusCommand> {
  constructor(private readonly writes: ServiceWriteRunner) {}

  async execute({ command, request, verb }: ReplaceServiceStatusCommand): Promise<WriteResult> {
    return this.writes.run({ namespace: command.namespace, name: command.name, verb, subresource: 'status', decide: (state, context) => decideReplaceStatus(command, state, context) }, request);
  }
}
