// @nestjs/cqrs query messages for the Service read side.
import { Query } from '@nestjs/cqrs';
import type { Service } from '../domain/service.types';

export class GetServiceQuery extends Query<Service> {
  constructor(
    readonly namespace: string,
    readonly name: string,
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
}

export interface ServiceList {
  kind: 'ServiceList';
  apiVersion: 'v1';
  metadata: { resourceVersion: string; continue?: string };
  items: Service[];
}

export class ListServicesQuery extends Query<ServiceList> {
  constructor(readonly options: ListServicesOptions) {
    super();
  }
}
