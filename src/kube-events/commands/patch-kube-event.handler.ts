import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideKubeEventReplace, eventNotFound } from '../../domain/kube-event/kube-event.decider';
import { patchedKubeEvent } from '../../patch/patched-kube-event';
import { PatchKubeEventCommand, type KubeEventWriteResult } from './kube-event.commands';
import { KubeEventWriteRunner } from './kube-event-write-runner';

/**
 * PATCH of an Event (JSON, merge or strategic merge): the patch is applied to the live Event inside
 * the write and the result decided as a PUT of it, recorded as "patch". A missing Event is 404,
 * which is what makes client-go's recorder fall back to a POST.
 */
@CommandHandler(PatchKubeEventCommand)
export class PatchKubeEventHandler implements ICommandHandler<PatchKubeEventCommand> {
  constructor(private readonly writes: KubeEventWriteRunner) {}

  async execute({ namespace, name, patch, api, request }: PatchKubeEventCommand): Promise<KubeEventWriteResult> {
    let warnings: string[] = [];
    const result = await this.writes.run(
      {
        namespace,
        name,
        verb: 'patch',
        decide: (state, context) => {
          if (!state.object) throw eventNotFound(name, api);
          // The patch applies to the Event as the API it came through serves it.
          const patched = patchedKubeEvent(state.object, patch, api);
          warnings = patched.warnings;
          return decideKubeEventReplace({ kind: 'ReplaceKubeEvent', namespace, name, object: patched.object, api, patch: true }, state, context);
        },
      },
      request,
    );
    return { ...result, warnings };
  }
}
