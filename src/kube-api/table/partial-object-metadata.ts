// `as=PartialObjectMetadata(List)`: apimachinery meta.AsPartialObjectMetadata and apiserver
// handlers/response.go asPartialObjectMetadata / asPartialObjectMetadataList.
import { encodeStruct } from '../../domain/codec/schema-encoder';
import { objectMetaSchema } from '../../domain/codec/service-schema';
import type { ObjectMeta, Service } from '../../domain/service.types';
import { ApiError } from '../api-errors';
import { buildListMeta, type ListMetaOptions } from './list-meta';
import type { MetaApiVersion, PartialObjectMetadata, PartialObjectMetadataList } from './table.types';

/**
 * The whole ObjectMeta, managedFields included (AsPartialObjectMetadata copies the struct), in Go
 * key order, with a mirrored object's fields svctrail does not know where the source had them; the
 * apiVersion is the group version the client asked for.
 */
export function toPartialObjectMetadata(svc: Service, apiVersion: MetaApiVersion): PartialObjectMetadata {
  const metadata = encodeStruct(objectMetaSchema, svc.metadata as Record<string, unknown>, { keepUnknownFields: true }) as ObjectMeta;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata };
}

export function buildPartialObjectMetadataList(items: readonly Service[], opts: ListMetaOptions & { apiVersion: MetaApiVersion }): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: opts.apiVersion,
    metadata: buildListMeta(opts),
    items: items.length > 0 ? items.map((svc) => toPartialObjectMetadata(svc, opts.apiVersion)) : null,
  };
}

/** 406 for `as=PartialObjectMetadata` on a list endpoint (the %T is the internal list type). */
export function partialObjectMetadataOfListError(): ApiError {
  return new ApiError(406, 'NotAcceptable', 'you requested PartialObjectMetadata, but the requested object is a list (*core.ServiceList)');
}

/** 406 for `as=PartialObjectMetadataList` on a single object. */
export function partialObjectMetadataListOfObjectError(): ApiError {
  return new ApiError(406, 'NotAcceptable', 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.Service)');
}
