// metav1.ListMeta as the Table and PartialObjectMetadataList carry it: keys in Go order, every
// field omitempty (remainingItemCount is a pointer, so 0 is kept).
import type { ListMeta } from './table.types';

export interface ListMetaOptions {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export function buildListMeta(opts: ListMetaOptions): ListMeta {
  const meta: ListMeta = {};
  if (opts.resourceVersion) meta.resourceVersion = opts.resourceVersion;
  if (opts.continue) meta.continue = opts.continue;
  if (opts.remainingItemCount !== undefined) meta.remainingItemCount = opts.remainingItemCount;
  return meta;
}
