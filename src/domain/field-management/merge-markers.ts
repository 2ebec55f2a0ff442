// What kube's OpenAPI says about merging beyond the Go types: the list and map markers
// (x-kubernetes-list-type, -list-map-keys, -map-type, generated from +listType, +listMapKey,
// +mapType and +structType in the types.go files) and the `default` of list-map key fields,
// which schemaconv and getAssociativeKeyDefault read. ObjectMeta's are shared by every kind.

export type Marker = { readonly listType: 'atomic' | 'set' } | { readonly listType: 'map'; readonly keys: readonly string[] } | { readonly mapType: 'atomic' };

export interface MergeMarkers {
  /** `Struct.field` → marker; a bare `Struct` marks the struct itself (+structType=atomic). */
  readonly markers: Readonly<Record<string, Marker>>;
  /** `Struct.field` → the OpenAPI default of a list-map key field (a missing `protocol` keys as "TCP"). */
  readonly keyDefaults: Readonly<Record<string, unknown>>;
}

/** metav1.ObjectMeta and OwnerReference (apimachinery pkg/apis/meta/v1/types.go). */
export const OBJECT_META_MARKERS: MergeMarkers = {
  markers: {
    'ObjectMeta.finalizers': { listType: 'set' },
    'ObjectMeta.ownerReferences': { listType: 'map', keys: ['uid'] },
    'ObjectMeta.managedFields': { listType: 'atomic' },
    OwnerReference: { mapType: 'atomic' },
  },
  keyDefaults: { 'OwnerReference.uid': '' },
};

/** One kind's markers: ObjectMeta's plus its own. */
export function withObjectMetaMarkers(own: MergeMarkers): MergeMarkers {
  return {
    markers: { ...OBJECT_META_MARKERS.markers, ...own.markers },
    keyDefaults: { ...OBJECT_META_MARKERS.keyDefaults, ...own.keyDefaults },
  };
}
