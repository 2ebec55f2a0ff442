import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../domain/errors/domain-errors';
import type { Service } from '../domain/service.types';
import { ServiceRepository } from '../store/service-repository';
import { GetServiceQuery } from './service.queries';

@QueryHandler(GetServiceQuery)
export class GetServiceHandler implements IQueryHandler<GetServiceQuery> {
  constructor(private readonly repository: ServiceRepository) {}

  async execute({ namespace, name }: GetServiceQuery): Promise<Service> {
    const state = this.repository.loadLive(namespace, name);
    if (!state.object) throw new NotFoundError('services', name);
    return state.object;
  }
}
