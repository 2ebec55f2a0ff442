import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, TooLargeResourceVersionError, tooOldResourceVersion } from '../domain/errors/domain-errors';
import { SERVICE_READ_STORE } from '../store/ports/service-read-store';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { GetServiceQuery } from './service.queries';
import { StoredService } from './stored-service';

@QueryHandler(GetServiceQuery)
export class GetServiceHandler implements IQueryHandler<GetServiceQuery> {
  constructor(@Inject(SERVICE_READ_STORE) private readonly store: ServiceReadStore) {}

  async execute({ namespace, name, asOf }: GetServiceQuery): Promise<StoredService> {
    if (asOf) {
      return this.store.inSnapshot(async (reads) => {
        const head = await reads.head();
        const rv = 'resourceVersion' in asOf ? asOf.resourceVersion : await reads.resourceVersionAt(asOf.time);
        if (rv > head) throw new TooLargeResourceVersionError(rv, head);
        // Below the horizon only the facts remain: no object to serve.
        const horizon = await reads.horizon();
        if (rv < horizon) throw tooOldResourceVersion(rv, horizon);
        // The revision current at rv is byte for byte what the API answered for it then.
        const past = await reads.jsonAsOf(namespace, name, rv);
        if (past === undefined) throw new NotFoundError('services', name);
        return new StoredService(past);
      });
    }
    const live = await this.store.liveJson(namespace, name);
    if (live === undefined) throw new NotFoundError('services', name);
    return new StoredService(live);
  }
}
