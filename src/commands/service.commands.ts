// @nestjs/cqrs command messages: a domain command plus who sent it.
import { Command } from '@nestjs/cqrs';
import type { CreateService, DeleteService, ReplaceService, ReplaceServiceStatus } from '../domain/service.commands';
import type { ApplyPatch } from '../patch/applied-object';
import type { ServicePatch } from '../patch/patched-service';
import type { WriteRequestContext, WriteResult } from './write-result';

export type PatchRequest = ServicePatch | ApplyPatch;

export class CreateServiceCommand extends Command<WriteResult> {
  constructor(
    readonly command: CreateService,
    readonly request: WriteRequestContext,
  ) {
    super();
  }
}

export class ReplaceServiceCommand extends Command<WriteResult> {
  constructor(
    readonly command: ReplaceService,
    readonly request: WriteRequestContext,
    /** "update" for PUT, "patch" when a PATCH produced the object. */
    readonly verb: 'update' | 'patch' = 'update',
  ) {
    super();
  }
}

export class ReplaceServiceStatusCommand extends Command<WriteResult> {
  constructor(
    readonly command: ReplaceServiceStatus,
    readonly request: WriteRequestContext,
    readonly verb: 'update' | 'patch' = 'update',
  ) {
    super();
  }
}

export class DeleteServiceCommand extends Command<WriteResult> {
  constructor(
    readonly command: DeleteService,
    readonly request: WriteRequestContext,
  ) {
    super();
  }
}

/** PATCH on the main resource or on /status: the patch is applied to the current object atomically. */
export class PatchServiceCommand extends Command<WriteResult & { warnings: string[] }> {
  constructor(
    readonly namespace: string,
    readonly name: string,
    readonly subresource: '' | 'status',
    readonly patch: PatchRequest,
    readonly request: WriteRequestContext,
  ) {
    super();
  }
}
