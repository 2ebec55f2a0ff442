// The Service columns and cells of kube-apiserver's server-side Table: printers.go AddHandlers
// (serviceColumnDefinitions) and printService, generated with `Wide: true` as the apiserver's
// TableConvertor always does (so the priority-1 Selector column is present and LB ingress is not
// clipped to 16 characters).
import type { Service } from '../../domain/service.types';
import { translateTimestampSince } from './human-duration';
import type { TableColumnDefinition } from './table.types';
import { compareGoStrings } from '../../domain/go-string-order';

// Descriptions are the SwaggerDoc() texts (types_swagger_doc_generated.go, Kubernetes v1.32) of the
// field each column shows. They keep the Go comments' double spaces and paragraph breaks ("\n\n"),
// which the OpenAPI descriptions render differently.
const OBJECT_META_NAME =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const OBJECT_META_CREATION_TIMESTAMP =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
const SERVICE_SPEC_TYPE =
  'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types';
const SERVICE_SPEC_CLUSTER_IP =
  'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies';
const SERVICE_SPEC_EXTERNAL_IPS =
  'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.';
const SERVICE_SPEC_PORTS = 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies';
const SERVICE_SPEC_SELECTOR =
  'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/';

const column = (name: string, description: string, extra: { format?: string; priority?: number } = {}): TableColumnDefinition => ({
  name,
  type: 'string',
  format: extra.format ?? '',
  description,
  priority: extra.priority ?? 0,
});

/** printers.go serviceColumnDefinitions, in order. */
export const SERVICE_COLUMN_DEFINITIONS: readonly TableColumnDefinition[] = Object.freeze([
  column('Name', OBJECT_META_NAME, { format: 'name' }),
  column('Type', SERVICE_SPEC_TYPE),
  column('Cluster-IP', SERVICE_SPEC_CLUSTER_IP),
  column('External-IP', SERVICE_SPEC_EXTERNAL_IPS),
  column('Port(s)', SERVICE_SPEC_PORTS),
  column('Age', OBJECT_META_CREATION_TIMESTAMP),
  column('Selector', SERVICE_SPEC_SELECTOR, { priority: 1 }),
]);

/** loadBalancerStatusStringer (wide): each ingress IP, else hostname, as a sorted set. */
function loadBalancerIngress(svc: Service): string[] {
  const seen = new Set<string>();
  for (const ingress of svc.status?.loadBalancer?.ingress ?? []) {
    if (ingress.ip) seen.add(ingress.ip);
    else if (ingress.hostname) seen.add(ingress.hostname);
  }
  return [...seen].sort(compareGoStrings);
}

/** getServiceExternalIP. */
function externalIP(svc: Service): string {
  const externalIPs = svc.spec.externalIPs ?? [];
  switch (svc.spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerIngress(svc), ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
  }
  return '<unknown>';
}

/** makePortString: `port/protocol`, or `port:nodePort/protocol` when a node port is set. */
function ports(svc: Service): string {
  const pieces = (svc.spec.ports ?? []).map((p) => ((p.nodePort ?? 0) > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`));
  return pieces.length > 0 ? pieces.join(',') : '<none>';
}

/** labels.FormatLabels: Set.String() sorts the `k=v` strings themselves (not the keys). */
function formatLabels(labels: Record<string, string> | undefined): string {
  const pairs = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`);
  return pairs.length > 0 ? pairs.sort(compareGoStrings).join(',') : '<none>';
}

/** printService with `Wide: true`: one cell per SERVICE_COLUMN_DEFINITIONS entry. */
export function serviceRow(svc: Service, now: Date): (string | number)[] {
  const clusterIPs = svc.spec.clusterIPs ?? [];
  return [
    svc.metadata.name ?? '',
    svc.spec.type ?? '',
    clusterIPs.length > 0 ? clusterIPs[0] : '<none>',
    externalIP(svc),
    ports(svc),
    translateTimestampSince(svc.metadata.creationTimestamp, now),
    formatLabels(svc.spec.selector),
  ];
}
