import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, TooLargeResourceVersionError } from '../domain/errors/domain-errors';
import { SqliteEventStore } from '../store/event-store';
import { ServiceRepository } from '../store/service-repository';
import { GetServiceQuery } from './service.queries';
import { StoredService } from './stored-service';

@QueryHandler(GetServiceQuery)
export class GetServiceHandler implements IQueryHandler<GetServiceQuery> {
  constructor(
    private readonly repository: ServiceRepository,
    private readonly eventStore: SqliteEventStore,
  ) {}

  async execute({ namespace, name, asOf }: GetServiceQuery): Promise<StoredService> {
    if (asOf) {
      const head = this.eventStore.head();
      const rv = 'resourceVersion' in asOf ? asOf.resourceVersion : this.repository.resourceVersionAt(asOf.time);
      if (rv > head) throw new TooLargeResourceVersionError(rv, head);
      // The revision current at rv is byte for byte what the API answered for it then.
      const past = this.repository.getJsonAsOf(namespace, name, rv);
      if (past === undefined) throw new NotFoundError('services', name);
      return new StoredService(past);
    }
    const live = this.repository.getLiveJson(namespace, name);
    if (live === undefined) throw new NotFoundError('services', name);
    return new StoredService(live);
  }
}
