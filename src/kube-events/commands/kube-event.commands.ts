// The Events API's writes as Nest commands: the pure command and who is writing.
import type { WriteRequestContext } from '../../commands/write-result';
import type { CreateKubeEvent, DeleteKubeEvent, ReplaceKubeEvent } from '../../domain/kube-event/kube-event.commands';
import type { EventApiVersion, KubeEvent } from '../../domain/kube-event/kube-event.types';
import type { ApplyPatch } from '../../patch/applied-object';
import type { KubeEventPatch } from '../../patch/patched-kube-event';

/** What an Event write answers. */
export interface KubeEventWriteResult {
  /** The Event after the write (for an ending, as it was). */
  object: KubeEvent;
  /** `object`'s JSON when the commit already encoded it. */
  json?: string;
  created: boolean;
  /** The Event ended: DELETE answers a Status. */
  ended: boolean;
  warnings?: string[];
}

export class CreateKubeEventCommand {
  constructor(
    readonly command: CreateKubeEvent,
    readonly request: WriteRequestContext,
  ) {}
}

export class ReplaceKubeEventCommand {
  constructor(
    readonly command: ReplaceKubeEvent,
    readonly request: WriteRequestContext,
  ) {}
}

export class PatchKubeEventCommand {
  constructor(
    readonly namespace: string,
    readonly name: string,
    readonly patch: KubeEventPatch | ApplyPatch,
    readonly api: EventApiVersion,
    readonly request: WriteRequestContext,
  ) {}
}

export class DeleteKubeEventCommand {
  constructor(
    readonly command: DeleteKubeEvent,
    readonly api: EventApiVersion,
    readonly request: WriteRequestContext,
  ) {}
}
