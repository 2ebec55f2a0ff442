// @nestjs/cqrs query messages for the Service read side.
import { Query } from '@nestjs/cqrs';
import type { StoredService } from './stored-service';

/** A point in the past: the state right after resourceVersion R, or as of a wall-clock time. */
export type PointInTime = { resourceVersion: number } | { time: string };

export class GetServiceQuery extends Query<StoredService> {
  constructor(
    readonly namespace: string,
    readonly name: string,
    readonly asOf?: PointInTime,
  ) {
    super();
  }
}

export interface ListServicesOptions {
  /** undefined = all namespaces */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  /** svctrail's wall-clock time travel: the list as it was at this RFC 3339 time. */
  asOfTime?: string;
}

export interface ServiceList {
  kind: 'ServiceList';
  apiVersion: 'v1';
  metadata: { resourceVersion: string; continue?: string };
  items: StoredService[];
}

export class ListServicesQuery extends Query<ServiceList> {
  constructor(readonly options: ListServicesOptions) {
    super();
  }
}
