// The merge schema of core/v1 Service, derived from the Go struct schemas the codec already
// declares (codec/service-schema.ts) plus the list/map markers kube publishes in its OpenAPI
// (x-kubernetes-list-type, -list-map-keys, -map-type; server-side-apply.md §5). As in kube's
// schemaconv: lists without a marker are atomic, structs and string maps are granular.
import { type GoType, type StructSchema } from '../codec/go-schema';
import { serviceSchema } from '../codec/service-schema';
import { DEDUCED, type MergeType, SCALAR } from './merge-type';

type Marker = { readonly listType: 'atomic' | 'set' } | { readonly listType: 'map'; readonly keys: readonly string[] } | { readonly mapType: 'atomic' };

/** `Struct.field` → marker; a bare `Struct` marks the struct itself. */
const SERVICE_MARKERS: Readonly<Record<string, Marker>> = {
  'ServiceSpec.ports': { listType: 'map', keys: ['port', 'protocol'] },
  'ServiceSpec.selector': { mapType: 'atomic' },
  'ServiceSpec.clusterIPs': { listType: 'atomic' },
  'ServiceSpec.externalIPs': { listType: 'atomic' },
  'ServiceSpec.loadBalancerSourceRanges': { listType: 'atomic' },
  'ServiceSpec.ipFamilies': { listType: 'atomic' },
  'ServiceStatus.conditions': { listType: 'map', keys: ['type'] },
  'LoadBalancerStatus.ingress': { listType: 'atomic' },
  'LoadBalancerIngress.ports': { listType: 'atomic' },
  'ObjectMeta.finalizers': { listType: 'set' },
  'ObjectMeta.ownerReferences': { listType: 'map', keys: ['uid'] },
  'ObjectMeta.managedFields': { listType: 'atomic' },
  OwnerReference: { mapType: 'atomic' },
};

/** OpenAPI `default` of list-map key fields (getAssociativeKeyDefault reads these). */
const KEY_DEFAULTS: Readonly<Record<string, unknown>> = {
  'ServicePort.port': 0,
  'ServicePort.protocol': 'TCP',
  'Condition.type': '',
  'OwnerReference.uid': '',
};

function fromGoType(type: GoType, marker: Marker | undefined): MergeType {
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
      // map[string][]string (UserInfo.extra): not part of a Service, granular with atomic values.
      return { kind: 'map', element: { kind: 'list', element: SCALAR, listType: 'atomic', keys: [], keyDefaults: {} }, atomic: false };
    case 'struct':
      return fromStruct(type.struct);
    case 'slice': {
      const element = fromGoType(type.elem, undefined);
      if (marker && 'listType' in marker && marker.listType === 'map') {
        const struct = type.elem.kind === 'struct' ? type.elem.struct.name : '';
        const keyDefaults: Record<string, unknown> = {};
        for (const key of marker.keys) {
          const d = KEY_DEFAULTS[`${struct}.${key}`];
          if (d !== undefined) keyDefaults[key] = d;
        }
        return { kind: 'list', element, listType: 'map', keys: marker.keys, keyDefaults };
      }
      const listType = marker && 'listType' in marker ? marker.listType : 'atomic';
      return { kind: 'list', element, listType, keys: [], keyDefaults: {} };
    }
  }
}

function fromStruct(struct: StructSchema): MergeType {
  const fields = new Map<string, MergeType>();
  for (const f of struct.fields) fields.set(f.json, fromGoType(f.type, SERVICE_MARKERS[`${struct.name}.${f.json}`]));
  const own = SERVICE_MARKERS[struct.name];
  return { kind: 'struct', name: struct.name, fields, atomic: own !== undefined && 'mapType' in own };
}

/** The whole v1 Service, `kind`/`apiVersion`/`metadata`/`spec`/`status`. */
export const SERVICE_MERGE_TYPE: MergeType = fromStruct(serviceSchema);
