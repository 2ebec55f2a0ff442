import { CreateServiceHandler } from './create-service.handler';
import { DeleteServiceHandler } from './delete-service.handler';
import { PatchServiceHandler } from './patch-service.handler';
import { ReplaceServiceStatusHandler } from './replace-service-status.handler';
import { ReplaceServiceHandler } from './replace-service.handler';

export const CommandHandlers = [CreateServiceHandler, ReplaceServiceHandler, ReplaceServiceStatusHandler, DeleteServiceHandler, PatchServiceHandler];
