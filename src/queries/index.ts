import { GetServiceHandler } from './get-service.handler';
import { ListServicesHandler } from './list-services.handler';

export const QueryHandlers = [GetServiceHandler, ListServicesHandler];
