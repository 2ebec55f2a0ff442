// meta.k8s.io Table and PartialObjectMetadata as they travel over the wire. Key order follows the
// Go structs in apimachinery pkg/apis/meta/v1/types.go, which is the order encoding/json writes.
import type { ObjectMeta, Service } from '../../domain/service.types';

export type MetaApiVersion = 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1';

/** `?includeObject=` (metav1.IncludeObjectPolicy); the apiserver treats empty as Metadata. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: MetaApiVersion;
  metadata: ObjectMeta;
}

export interface TableRow {
  cells: (string | number)[];
  /** runtime.RawExtension: a struct, so `omitempty` never drops it; empty renders as null. */
  object: PartialObjectMetadata | Service | null;
}

/** metav1.ListMeta: every field omitempty. */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface Table {
  kind: 'Table';
  apiVersion: MetaApiVersion;
  metadata: ListMeta;
  /** No omitempty: the nil slice of a NoHeaders table renders as null. */
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[];
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: MetaApiVersion;
  metadata: ListMeta;
  /** No omitempty, and asPartialObjectMetadataList only appends: an empty list renders null. */
  items: PartialObjectMetadata[] | null;
}
