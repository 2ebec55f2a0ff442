// A kind's merge schema, derived as kube's schemaconv derives it from the OpenAPI: the Go struct
// schema the codec already declares (codec/go-schema.ts) gives the shape, the markers
// (merge-markers.ts) the merge strategy. Lists without a marker are atomic, structs and string
// maps granular (kube-openapi pkg/schemaconv/smd.go).
import { type GoType, type StructSchema } from '../codec/go-schema';
import { type Marker, type MergeMarkers } from './merge-markers';
import { DEDUCED, type MergeType, SCALAR } from './merge-type';

/** The merge type of a whole object of `struct`'s type. */
export function structMergeType(struct: StructSchema, markers: MergeMarkers): MergeType {
  const fromGoType = (type: GoType, marker: Marker | undefined): MergeType => {
    switch (type.kind) {
      case 'string':
      case 'bool':
      case 'int':
      case 'intOrString':
      case 'time':
        return SCALAR;
      case 'rawJson':
        return DEDUCED;
      case 'stringMap':
        return { kind: 'map', element: SCALAR, atomic: marker !== undefined && 'mapType' in marker };
      case 'stringListMap':
        // map[string][]string (UserInfo.extra): granular, with atomic values.
        return { kind: 'map', element: { kind: 'list', element: SCALAR, listType: 'atomic', keys: [], keyDefaults: {} }, atomic: false };
      case 'struct':
        return fromStruct(type.struct);
      case 'slice': {
        const element = fromGoType(type.elem, undefined);
        if (marker && 'listType' in marker && marker.listType === 'map') {
          const item = type.elem.kind === 'struct' ? type.elem.struct.name : '';
          const keyDefaults: Record<string, unknown> = {};
          for (const key of marker.keys) {
            const d = markers.keyDefaults[`${item}.${key}`];
            if (d !== undefined) keyDefaults[key] = d;
          }
          return { kind: 'list', element, listType: 'map', keys: marker.keys, keyDefaults };
        }
        const listType = marker && 'listType' in marker ? marker.listType : 'atomic';
        return { kind: 'list', element, listType, keys: [], keyDefaults: {} };
      }
    }
  };
  const fromStruct = (s: StructSchema): MergeType => {
    const fields = new Map<string, MergeType>();
    for (const f of s.fields) fields.set(f.json, fromGoType(f.type, markers.markers[`${s.name}.${f.json}`]));
    const own = markers.markers[s.name];
    return { kind: 'struct', name: s.name, fields, atomic: own !== undefined && 'mapType' in own };
  };
  return fromStruct(struct);
}
