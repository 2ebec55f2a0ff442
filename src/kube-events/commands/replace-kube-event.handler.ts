import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideKubeEventReplace } from '../../domain/kube-event/kube-event.decider';
import { ReplaceKubeEventCommand, type KubeEventWriteResult } from './kube-event.commands';
import { KubeEventWriteRunner } from './kube-event-write-runner';

/** PUT of an Event: replaced whole (a missing one is created, AllowCreateOnUpdate). */
@CommandHandler(ReplaceKubeEventCommand)
export class ReplaceKubeEventHandler implements ICommandHandler<ReplaceKubeEventCommand> {
  constructor(private readonly writes: KubeEventWriteRunner) {}

  execute({ command, request }: ReplaceKubeEventCommand): Promise<KubeEventWriteResult> {
    return this.writes.run({ namespace: command.namespace, name: command.name, verb: 'update', decide: (state, context) => decideKubeEventReplace(command, state, context) }, request);
  }
}
