// The meta.k8s.io Table kube-apiserver returns for Services: tablegenerator.go GenerateTable
// (columns unless NoHeaders, ListMeta copied) followed by handlers/response.go asTable (what
// each row's `object` carries). A single GET or a watch event is a one-item table whose
// resourceVersion is the object's own.
import { encodeService } from '../../domain/codec/service-encoder';
import type { Service } from '../../domain/service.types';
import { buildListMeta, type ListMetaOptions } from './list-meta';
import { toPartialObjectMetadata } from './partial-object-metadata';
import { SERVICE_COLUMN_DEFINITIONS, serviceRow } from './service-table';
import type { IncludeObject, MetaApiVersion, Table, TableRow } from './table.types';

export interface BuildTableOptions extends ListMetaOptions {
  now: Date;
  includeObject: IncludeObject;
  apiVersion: MetaApiVersion;
  /** Watch events after the first (watchEmbeddedEncoder): columnDefinitions render as null. */
  noHeaders?: boolean;
}

function rowObject(svc: Service, opts: BuildTableOptions): TableRow['object'] {
  switch (opts.includeObject) {
    case 'Object':
      // The object as served: a mirrored one's fields svctrail does not know included.
      return encodeService(svc, { keepUnknownFields: true });
    case 'None':
      return null;
    default:
      return toPartialObjectMetadata(svc, opts.apiVersion);
  }
}

export function buildTable(items: readonly Service[], opts: BuildTableOptions): Table {
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: buildListMeta(opts),
    columnDefinitions: opts.noHeaders ? null : SERVICE_COLUMN_DEFINITIONS.map((c) => ({ ...c })),
    rows: items.map((svc) => ({ cells: serviceRow(svc, opts.now), object: rowObject(svc, opts) })),
  };
}
