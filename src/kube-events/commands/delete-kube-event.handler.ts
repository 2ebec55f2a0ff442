import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideKubeEventDelete } from '../../domain/kube-event/kube-event.decider';
import { DeleteKubeEventCommand, type KubeEventWriteResult } from './kube-event.commands';
import { KubeEventWriteRunner } from './kube-event-write-runner';

/** DELETE of an Event: gone at once, or marked for deletion while finalizers remain. */
@CommandHandler(DeleteKubeEventCommand)
export class DeleteKubeEventHandler implements ICommandHandler<DeleteKubeEventCommand> {
  constructor(private readonly writes: KubeEventWriteRunner) {}

  execute({ command, api, request }: DeleteKubeEventCommand): Promise<KubeEventWriteResult> {
    return this.writes.run({ namespace: command.namespace, name: command.name, verb: 'delete', decide: (state, context) => decideKubeEventDelete(command, state, { ...context, api }) }, request);
  }
}
