// core/v1 Service and every struct it reaches, as of Kubernetes v1.32
// (kubernetes/api core/v1/types.go, kubernetes/apimachinery pkg/apis/meta/v1/types.go).
// Field order is Go struct order; `omitempty` and pointer-ness are copied from the json tags
// and field types, because they decide what the encoder omits.
import { field, goBool, goInt32, goInt64, goIntOrString, goRawJson, goSliceOf, goString, goStringMap, goStruct, goTime, type StructSchema } from './go-schema';
import { listMetaSchema } from './meta-schema';

const O = { omitempty: true };
const OP = { omitempty: true, pointer: true };

export const ownerReferenceSchema: StructSchema = {
  name: 'OwnerReference',
  goName: 'v1.OwnerReference',
  fields: [
    field('apiVersion', 'APIVersion', goString()),
    field('kind', 'Kind', goString()),
    field('name', 'Name', goString()),
    field('uid', 'UID', goString('types.UID')),
    field('controller', 'Controller', goBool, OP),
    field('blockOwnerDeletion', 'BlockOwnerDeletion', goBool, OP),
  ],
};

export const managedFieldsEntrySchema: StructSchema = {
  name: 'ManagedFieldsEntry',
  goName: 'v1.ManagedFieldsEntry',
  fields: [
    field('manager', 'Manager', goString(), O),
    field('operation', 'Operation', goString('v1.ManagedFieldsOperationType'), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('time', 'Time', goTime, OP),
    field('fieldsType', 'FieldsType', goString(), O),
    field('fieldsV1', 'FieldsV1', goRawJson, OP),
    field('subresource', 'Subresource', goString(), O),
  ],
};

export const objectMetaSchema: StructSchema = {
  name: 'ObjectMeta',
  goName: 'v1.ObjectMeta',
  fields: [
    field('name', 'Name', goString(), O),
    field('generateName', 'GenerateName', goString(), O),
    field('namespace', 'Namespace', goString(), O),
    field('selfLink', 'SelfLink', goString(), O),
    field('uid', 'UID', goString('types.UID'), O),
    field('resourceVersion', 'ResourceVersion', goString(), O),
    field('generation', 'Generation', goInt64, O),
    // A struct with omitempty: never omitted, the zero time renders as null.
    field('creationTimestamp', 'CreationTimestamp', goTime, O),
    field('deletionTimestamp', 'DeletionTimestamp', goTime, OP),
    field('deletionGracePeriodSeconds', 'DeletionGracePeriodSeconds', goInt64, OP),
    field('labels', 'Labels', goStringMap, O),
    field('annotations', 'Annotations', goStringMap, O),
    field('ownerReferences', 'OwnerReferences', goSliceOf(goStruct(ownerReferenceSchema)), O),
    field('finalizers', 'Finalizers', goSliceOf(goString()), O),
    field('managedFields', 'ManagedFields', goSliceOf(goStruct(managedFieldsEntrySchema)), O),
  ],
};

export const servicePortSchema: StructSchema = {
  name: 'ServicePort',
  goName: 'v1.ServicePort',
  fields: [
    field('name', 'Name', goString(), O),
    field('protocol', 'Protocol', goString('v1.Protocol'), O),
    field('appProtocol', 'AppProtocol', goString(), OP),
    field('port', 'Port', goInt32),
    field('targetPort', 'TargetPort', goIntOrString, O),
    field('nodePort', 'NodePort', goInt32, O),
  ],
};

export const clientIPConfigSchema: StructSchema = {
  name: 'ClientIPConfig',
  goName: 'v1.ClientIPConfig',
  fields: [field('timeoutSeconds', 'TimeoutSeconds', goInt32, OP)],
};

export const sessionAffinityConfigSchema: StructSchema = {
  name: 'SessionAffinityConfig',
  goName: 'v1.SessionAffinityConfig',
  fields: [field('clientIP', 'ClientIP', goStruct(clientIPConfigSchema), OP)],
};

export const serviceSpecSchema: StructSchema = {
  name: 'ServiceSpec',
  goName: 'v1.ServiceSpec',
  fields: [
    field('ports', 'Ports', goSliceOf(goStruct(servicePortSchema)), O),
    field('selector', 'Selector', goStringMap, O),
    field('clusterIP', 'ClusterIP', goString(), O),
    field('clusterIPs', 'ClusterIPs', goSliceOf(goString()), O),
    field('type', 'Type', goString('v1.ServiceType'), O),
    field('externalIPs', 'ExternalIPs', goSliceOf(goString()), O),
    field('sessionAffinity', 'SessionAffinity', goString('v1.ServiceAffinity'), O),
    field('loadBalancerIP', 'LoadBalancerIP', goString(), O),
    field('loadBalancerSourceRanges', 'LoadBalancerSourceRanges', goSliceOf(goString()), O),
    field('externalName', 'ExternalName', goString(), O),
    field('externalTrafficPolicy', 'ExternalTrafficPolicy', goString('v1.ServiceExternalTrafficPolicy'), O),
    field('healthCheckNodePort', 'HealthCheckNodePort', goInt32, O),
    field('publishNotReadyAddresses', 'PublishNotReadyAddresses', goBool, O),
    field('sessionAffinityConfig', 'SessionAffinityConfig', goStruct(sessionAffinityConfigSchema), OP),
    field('ipFamilies', 'IPFamilies', goSliceOf(goString('v1.IPFamily')), O),
    field('ipFamilyPolicy', 'IPFamilyPolicy', goString('v1.IPFamilyPolicy'), OP),
    field('allocateLoadBalancerNodePorts', 'AllocateLoadBalancerNodePorts', goBool, OP),
    field('loadBalancerClass', 'LoadBalancerClass', goString(), OP),
    field('internalTrafficPolicy', 'InternalTrafficPolicy', goString('v1.ServiceInternalTrafficPolicy'), OP),
    field('trafficDistribution', 'TrafficDistribution', goString(), OP),
  ],
};

export const portStatusSchema: StructSchema = {
  name: 'PortStatus',
  goName: 'v1.PortStatus',
  fields: [field('port', 'Port', goInt32), field('protocol', 'Protocol', goString('v1.Protocol')), field('error', 'Error', goString(), OP)],
};

export const loadBalancerIngressSchema: StructSchema = {
  name: 'LoadBalancerIngress',
  goName: 'v1.LoadBalancerIngress',
  fields: [
    field('ip', 'IP', goString(), O),
    field('hostname', 'Hostname', goString(), O),
    field('ipMode', 'IPMode', goString('v1.LoadBalancerIPMode'), OP),
    field('ports', 'Ports', goSliceOf(goStruct(portStatusSchema)), O),
  ],
};

export const loadBalancerStatusSchema: StructSchema = {
  name: 'LoadBalancerStatus',
  goName: 'v1.LoadBalancerStatus',
  fields: [field('ingress', 'Ingress', goSliceOf(goStruct(loadBalancerIngressSchema)), O)],
};

/** metav1.Condition: only observedGeneration is omitempty; lastTransitionTime renders null when zero. */
export const conditionSchema: StructSchema = {
  name: 'Condition',
  goName: 'v1.Condition',
  fields: [
    field('type', 'Type', goString()),
    field('status', 'Status', goString('v1.ConditionStatus')),
    field('observedGeneration', 'ObservedGeneration', goInt64, O),
    field('lastTransitionTime', 'LastTransitionTime', goTime),
    field('reason', 'Reason', goString()),
    field('message', 'Message', goString()),
  ],
};

export const serviceStatusSchema: StructSchema = {
  name: 'ServiceStatus',
  goName: 'v1.ServiceStatus',
  fields: [field('loadBalancer', 'LoadBalancer', goStruct(loadBalancerStatusSchema), O), field('conditions', 'Conditions', goSliceOf(goStruct(conditionSchema)), O)],
};

/** v1.Service with metav1.TypeMeta inlined (its `kind`/`apiVersion` are promoted fields). */
export const serviceSchema: StructSchema = {
  name: 'Service',
  goName: 'v1.Service',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('metadata', 'ObjectMeta', goStruct(objectMetaSchema), O),
    field('spec', 'Spec', goStruct(serviceSpecSchema), O),
    field('status', 'Status', goStruct(serviceStatusSchema), O),
  ],
};

/** v1.ServiceList: TypeMeta, ListMeta, items (no omitempty: an empty list is `"items": []`). */
export const serviceListSchema: StructSchema = {
  name: 'ServiceList',
  goName: 'v1.ServiceList',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('metadata', 'ListMeta', goStruct(listMetaSchema), O),
    field('items', 'Items', goSliceOf(goStruct(serviceSchema))),
  ],
};
