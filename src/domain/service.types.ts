// The Kubernetes core/v1 Service as it travels over the wire (JSON shapes, Go field names).
// Field order in these interfaces follows the Go structs in kubernetes/api core/v1/types.go,
// which is the order the canonical encoder writes keys in.

export type IntOrString = number | string;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port: number;
  targetPort?: IntOrString;
  nodePort?: number;
}

export interface ClientIPConfig {
  timeoutSeconds?: number;
}

export interface SessionAffinityConfig {
  clientIP?: ClientIPConfig;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: string;
  externalIPs?: string[];
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: SessionAffinityConfig;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: string;
  trafficDistribution?: string;
}

export interface PortStatus {
  port: number;
  protocol: string;
  error?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string;
  ports?: PortStatus[];
}

export interface LoadBalancerStatus {
  ingress?: LoadBalancerIngress[];
}

/** metav1.Condition; `lastTransitionTime` has no omitempty, so a missing one renders as null. */
export interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string | null;
  reason: string;
  message: string;
}

export interface ServiceStatus {
  loadBalancer: LoadBalancerStatus;
  conditions?: Condition[];
}

export interface Service {
  kind?: string;
  apiVersion?: string;
  metadata: ObjectMeta;
  spec: ServiceSpec;
  status: ServiceStatus;
}
