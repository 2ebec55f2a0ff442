// The merge schema of core/v1 Service: its Go struct schema (codec/service-schema.ts) with the
// markers kube publishes for it (server-side-apply.md §5).
import { serviceSchema } from '../codec/service-schema';
import { withObjectMetaMarkers } from './merge-markers';
import { type MergeType } from './merge-type';
import { structMergeType } from './struct-merge-type';

const SERVICE_MARKERS = withObjectMetaMarkers({
  markers: {
    'ServiceSpec.ports': { listType: 'map', keys: ['port', 'protocol'] },
    'ServiceSpec.selector': { mapType: 'atomic' },
    'ServiceSpec.clusterIPs': { listType: 'atomic' },
    'ServiceSpec.externalIPs': { listType: 'atomic' },
    'ServiceSpec.loadBalancerSourceRanges': { listType: 'atomic' },
    'ServiceSpec.ipFamilies': { listType: 'atomic' },
    'ServiceStatus.conditions': { listType: 'map', keys: ['type'] },
    'LoadBalancerStatus.ingress': { listType: 'atomic' },
    'LoadBalancerIngress.ports': { listType: 'atomic' },
  },
  keyDefaults: {
    'ServicePort.port': 0,
    'ServicePort.protocol': 'TCP',
    'Condition.type': '',
  },
});

/** The whole v1 Service, `kind`/`apiVersion`/`metadata`/`spec`/`status`. */
export const SERVICE_MERGE_TYPE: MergeType = structMergeType(serviceSchema, SERVICE_MARKERS);
