// The Service command handlers, and a domain command run through its own handler: how the store,
// history and maintenance specs write without HTTP, through an application's handlers or through
// handlers over a write runner they built on another engine's store.
import type { INestApplicationContext } from '@nestjs/common';
import { CreateServiceHandler } from '../../src/commands/create-service.handler';
import { DeleteServiceHandler } from '../../src/commands/delete-service.handler';
import { ReplaceServiceStatusHandler } from '../../src/commands/replace-service-status.handler';
import { ReplaceServiceHandler } from '../../src/commands/replace-service.handler';
import { CreateServiceCommand, DeleteServiceCommand, ReplaceServiceCommand, ReplaceServiceStatusCommand } from '../../src/commands/service.commands';
import type { ServiceWriteRunner } from '../../src/commands/service-write-runner';
import type { WriteRequestContext, WriteResult } from '../../src/commands/write-result';
import type { ServiceCommand } from '../../src/domain/service.commands';
import type { IdFactory } from '../../src/shared/ids';

export interface ServiceHandlers {
  create: CreateServiceHandler;
  /** Runs `command` through the handler of its kind, as the HTTP endpoints do. */
  execute(command: ServiceCommand, request: WriteRequestContext): Promise<WriteResult>;
}

/** The application's own handlers. */
export function handlersOf(app: INestApplicationContext): ServiceHandlers {
  return dispatching(app.get(CreateServiceHandler), app.get(ReplaceServiceHandler), app.get(ReplaceServiceStatusHandler), app.get(DeleteServiceHandler));
}

/** Handlers over `runner` (an engine's store the application does not hold), drawing from `ids`. */
export function handlersOn(runner: ServiceWriteRunner, ids: IdFactory): ServiceHandlers {
  return dispatching(new CreateServiceHandler(runner, ids), new ReplaceServiceHandler(runner), new ReplaceServiceStatusHandler(runner), new DeleteServiceHandler(runner));
}

function dispatching(create: CreateServiceHandler, replace: ReplaceServiceHandler, replaceStatus: ReplaceServiceStatusHandler, remove: DeleteServiceHandler): ServiceHandlers {
  return {
    create,
    execute(command, request) {
      switch (command.kind) {
        case 'CreateService':
          return create.execute(new CreateServiceCommand(command, request));
        case 'ReplaceService':
          return replace.execute(new ReplaceServiceCommand(command, request));
        case 'ReplaceServiceStatus':
          return replaceStatus.execute(new ReplaceServiceStatusCommand(command, request));
        case 'DeleteService':
          return remove.execute(new DeleteServiceCommand(command, request));
      }
    },
  };
}
