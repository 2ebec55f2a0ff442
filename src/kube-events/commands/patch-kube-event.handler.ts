import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { managerName } from '../../domain/field-management';
import { decideKubeEventReplace, eventNotFound } from '../../domain/kube-event/kube-event.decider';
import { appliedKubeEvent } from '../../patch/applied-kube-event';
import { patchedKubeEvent } from '../../patch/patched-kube-event';
import { PatchKubeEventCommand, type KubeEventWriteResult } from './kube-event.commands';
import { KubeEventWriteRunner } from './kube-event-write-runner';

/**
 * PATCH of an Event: the patch is applied to the live Event inside the write and the result
 * decided as a PUT of it, recorded as "patch". JSON, merge or strategic merge on a missing Event is
 * 404, which is what makes client-go's recorder fall back to a POST; server-side apply creates it
 * (201, handlers/patch.go applyPatcher.createNewObject) and its managedFields are the apply's.
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
          if (patch.type === 'apply') {
            const manager = managerName(request.fieldManager, request.userAgent);
            const applied = appliedKubeEvent(state.object, patch, { manager, subresource: '', now: context.now, namespace, name }, api);
            warnings = applied.warnings;
            const ownership = { ...context, managedFields: () => applied.managedFields ?? undefined };
            return decideKubeEventReplace({ kind: 'ReplaceKubeEvent', namespace, name, object: applied.object, api }, state, ownership);
          }
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
