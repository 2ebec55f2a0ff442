import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import { SqliteEventStore } from '../store/event-store';
import type { Service } from '../domain/service.types';
import { ServiceRepository } from '../store/service-repository';
import { GetServiceQuery } from './service.queries';

@QueryHandler(GetServiceQuery)
export class GetServiceHandler implements IQueryHandler<GetServiceQuery> {
  constructor(
    private readonly repository: ServiceRepository,
    private readonly eventStore: SqliteEventStore,
  ) {}

  async execute({ namespace, name, asOf }: GetServiceQuery): Promise<Service> {
    if (asOf) {
      const head = this.eventStore.head();
      const rv = 'resourceVersion' in asOf ? asOf.resourceVersion : this.repository.resourceVersionAt(asOf.time);
      if (rv > head) throw new TooLargeResourceVersionError(rv, head);
      // The revision current at rv is byte for byte what the API answered for it then.
      const past = this.repository.getAsOf(namespace, name, rv);
      if (!past) throw new NotFoundError('services', name);
      return past;
    }
    const state = this.repository.loadLive(namespace, name);
    if (!state.object) throw new NotFoundError('services', name);
    return state.object;
  }
}
