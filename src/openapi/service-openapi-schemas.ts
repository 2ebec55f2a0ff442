// components.schemas of kube-apiserver's /openapi/v3/api/v1, trimmed to what a Service and the
// Service endpoints reach. Text, defaults and x-kubernetes-* markers are upstream's
// (api/openapi-spec/v3/api__v1_openapi.json); kubectl explain prints them and kubectl apply
// takes strategic-merge keys from them, so they are data, not prose to tidy.
import type { OpenApiObject } from './openapi-value';

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

const CORE = 'io.k8s.api.core.v1.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

function ref(name: string): OpenApiObject {
  return { allOf: [{ $ref: SCHEMA_REF_PREFIX + name }] };
}

const API_VERSION = {
  description:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};

const KIND = {
  description:
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};

const LIST_METADATA = {
  ...ref(META + 'ListMeta'),
  default: {},
  description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
};

const STRING_ITEMS = { default: '', type: 'string' };

const ATOMIC_STRING_LIST = { items: STRING_ITEMS, type: 'array', 'x-kubernetes-list-type': 'atomic' };

function gvk(kind: string) {
  return [{ group: '', kind, version: 'v1' }];
}

export const SERVICE_SCHEMAS: Record<string, OpenApiObject> = {
  [CORE + 'ClientIPConfig']: {
    description: 'ClientIPConfig represents the configurations of Client IP based session affinity.',
    properties: {
      timeoutSeconds: {
        description:
          'timeoutSeconds specifies the seconds of ClientIP type session sticky time. The value must be >0 && <=86400(for 1 day) if ServiceAffinity == "ClientIP". Default value is 10800(for 3 hours).',
        format: 'int32',
        type: 'integer',
      },
    },
    type: 'object',
  },
  [CORE + 'LoadBalancerIngress']: {
    description: 'LoadBalancerIngress represents the status of a load-balancer ingress point: traffic intended for the service should be sent to an ingress point.',
    properties: {
      hostname: {
        description: 'Hostname is set for load-balancer ingress points that are DNS based (typically AWS load-balancers)',
        type: 'string',
      },
      ip: {
        description: 'IP is set for load-balancer ingress points that are IP based (typically GCE or OpenStack load-balancers)',
        type: 'string',
      },
      ipMode: {
        description:
          'IPMode specifies how the load-balancer IP behaves, and may only be specified when the ip field is specified. Setting this to "VIP" indicates that traffic is delivered to the node with the destination set to the load-balancer\'s IP and port. Setting this to "Proxy" indicates that traffic is delivered to the node or pod with the destination set to the node\'s IP and node port or the pod\'s IP and port. Service implementations may use this information to adjust traffic routing.',
        type: 'string',
      },
      ports: {
        description: 'Ports is a list of records of service ports If used, every port defined in the service should have an entry in it',
        items: { ...ref(CORE + 'PortStatus'), default: {} },
        type: 'array',
        'x-kubernetes-list-type': 'atomic',
      },
    },
    type: 'object',
  },
  [CORE + 'LoadBalancerStatus']: {
    description: 'LoadBalancerStatus represents the status of a load-balancer.',
    properties: {
      ingress: {
        description: 'Ingress is a list containing ingress points for the load-balancer. Traffic intended for the service should be sent to these ingress points.',
        items: { ...ref(CORE + 'LoadBalancerIngress'), default: {} },
        type: 'array',
        'x-kubernetes-list-type': 'atomic',
      },
    },
    type: 'object',
  },
  [CORE + 'PortStatus']: {
    description: 'PortStatus represents the error condition of a service port',
    properties: {
      error: {
        description:
          'Error is to record the problem with the service port The format of the error shall comply with the following rules: - built-in error values shall be specified in this file and those shall use\n  CamelCase names\n- cloud provider specific error values must have names that comply with the\n  format foo.example.com/CamelCase.',
        type: 'string',
      },
      port: {
        default: 0,
        description: 'Port is the port number of the service port of which status is recorded here',
        format: 'int32',
        type: 'integer',
      },
      protocol: {
        default: '',
        description: 'Protocol is the protocol of the service port of which status is recorded here The supported values are: "TCP", "UDP", "SCTP"',
        type: 'string',
      },
    },
    required: ['port', 'protocol'],
    type: 'object',
  },
  [CORE + 'Service']: {
    description:
      'Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.',
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: {
        ...ref(META + 'ObjectMeta'),
        default: {},
        description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
      },
      spec: {
        ...ref(CORE + 'ServiceSpec'),
        default: {},
        description: 'Spec defines the behavior of a service. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      },
      status: {
        ...ref(CORE + 'ServiceStatus'),
        default: {},
        description:
          'Most recently observed status of the service. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      },
    },
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('Service'),
  },
  [CORE + 'ServiceList']: {
    description: 'ServiceList holds a list of services.',
    properties: {
      apiVersion: API_VERSION,
      items: {
        description: 'List of services',
        items: { ...ref(CORE + 'Service'), default: {} },
        type: 'array',
      },
      kind: KIND,
      metadata: LIST_METADATA,
    },
    required: ['items'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('ServiceList'),
  },
  [CORE + 'ServicePort']: {
    description: "ServicePort contains information on service's port.",
    properties: {
      appProtocol: {
        description:
          "The application protocol for this port. This is used as a hint for implementations to offer richer behavior for protocols that they understand. This field follows standard Kubernetes label syntax. Valid values are either:\n\n* Un-prefixed protocol names - reserved for IANA standard service names (as per RFC-6335 and https://www.iana.org/assignments/service-names).\n\n* Kubernetes-defined prefixed names:\n  * 'kubernetes.io/h2c' - HTTP/2 prior knowledge over cleartext as described in https://www.rfc-editor.org/rfc/rfc9113.html#name-starting-http-2-with-prior-\n  * 'kubernetes.io/ws'  - WebSocket over cleartext as described in https://www.rfc-editor.org/rfc/rfc6455\n  * 'kubernetes.io/wss' - WebSocket over TLS as described in https://www.rfc-editor.org/rfc/rfc6455\n\n* Other protocols should use implementation-defined prefixed names such as mycompany.com/my-custom-protocol.",
        type: 'string',
      },
      name: {
        description:
          "The name of this port within the service. This must be a DNS_LABEL. All ports within a ServiceSpec must have unique names. When considering the endpoints for a Service, this must match the 'name' field in the EndpointPort. Optional if only one ServicePort is defined on this service.",
        type: 'string',
      },
      nodePort: {
        description:
          'The port on each node on which this service is exposed when type is NodePort or LoadBalancer.  Usually assigned by the system. If a value is specified, in-range, and not in use it will be used, otherwise the operation will fail.  If not specified, a port will be allocated if this Service requires one.  If this field is specified when creating a Service which does not need it, creation will fail. This field will be wiped when updating a Service to no longer need it (e.g. changing type from NodePort to ClusterIP). More info: https://kubernetes.io/docs/concepts/services-networking/service/#type-nodeport',
        format: 'int32',
        type: 'integer',
      },
      port: {
        default: 0,
        description: 'The port that will be exposed by this service.',
        format: 'int32',
        type: 'integer',
      },
      protocol: {
        default: 'TCP',
        description: 'The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.',
        type: 'string',
      },
      targetPort: {
        ...ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'),
        description:
          "Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports. If this is not specified, the value of the 'port' field is used (an identity map). This field is ignored for services with clusterIP=None, and should be omitted or set equal to the 'port' field. More info: https://kubernetes.io/docs/concepts/services-networking/service/#defining-a-service",
      },
    },
    required: ['port'],
    type: 'object',
  },
  [CORE + 'ServiceSpec']: {
    description: 'ServiceSpec describes the attributes that a user creates on a service.',
    properties: {
      allocateLoadBalancerNodePorts: {
        description:
          'allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer.  Default is "true". It may be set to "false" if the cluster load-balancer does not rely on NodePorts.  If the caller requests specific NodePorts (by specifying a value), those requests will be respected, regardless of this field. This field may only be set for services with type LoadBalancer and will be cleared if the type is changed to any other type.',
        type: 'boolean',
      },
      clusterIP: {
        description:
          'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
        type: 'string',
      },
      clusterIPs: {
        description:
          'ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly.  If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be empty) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address.  Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName.  If this field is not specified, it will be initialized from the clusterIP field.  If this field is specified, clients must ensure that clusterIPs[0] and clusterIP have the same value.\n\nThis field may hold a maximum of two entries (dual-stack IPs, in either order). These IPs must correspond to the values of the ipFamilies field. Both clusterIPs and ipFamilies are governed by the ipFamilyPolicy field. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
        ...ATOMIC_STRING_LIST,
      },
      externalIPs: {
        description:
          'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.',
        ...ATOMIC_STRING_LIST,
      },
      externalName: {
        description:
          'externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record). No proxying will be involved.  Must be a lowercase RFC-1123 hostname (https://tools.ietf.org/html/rfc1123) and requires `type` to be "ExternalName".',
        type: 'string',
      },
      externalTrafficPolicy: {
        description:
          'externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service\'s "externally-facing" addresses (NodePorts, ExternalIPs, and LoadBalancer IPs). If set to "Local", the proxy will configure the service in a way that assumes that external load balancers will take care of balancing the service traffic between nodes, and so each node will deliver traffic only to the node-local endpoints of the service, without masquerading the client source IP. (Traffic mistakenly sent to a node with no endpoints will be dropped.) The default value, "Cluster", uses the standard behavior of routing to all endpoints evenly (possibly modified by topology and other features). Note that traffic sent to an External IP or LoadBalancer IP from within the cluster will always get "Cluster" semantics, but clients sending to a NodePort from within the cluster may need to take traffic policy into account when picking a node.',
        type: 'string',
      },
      healthCheckNodePort: {
        description:
          'healthCheckNodePort specifies the healthcheck nodePort for the service. This only applies when type is set to LoadBalancer and externalTrafficPolicy is set to Local. If a value is specified, is in-range, and is not in use, it will be used.  If not specified, a value will be automatically allocated.  External systems (e.g. load-balancers) can use this port to determine if a given node holds endpoints for this service or not.  If this field is specified when creating a Service which does not need it, creation will fail. This field will be wiped when updating a Service to no longer need it (e.g. changing type). This field cannot be updated once set.',
        format: 'int32',
        type: 'integer',
      },
      internalTrafficPolicy: {
        description:
          'InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP. If set to "Local", the proxy will assume that pods only want to talk to endpoints of the service on the same node as the pod, dropping the traffic if there are no local endpoints. The default value, "Cluster", uses the standard behavior of routing to all endpoints evenly (possibly modified by topology and other features).',
        type: 'string',
      },
      ipFamilies: {
        description:
          'IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service. This field is usually assigned automatically based on cluster configuration and the ipFamilyPolicy field. If this field is specified manually, the requested family is available in the cluster, and ipFamilyPolicy allows it, it will be used; otherwise creation of the service will fail. This field is conditionally mutable: it allows for adding or removing a secondary IP family, but it does not allow changing the primary IP family of the Service. Valid values are "IPv4" and "IPv6".  This field only applies to Services of types ClusterIP, NodePort, and LoadBalancer, and does apply to "headless" services. This field will be wiped when updating a Service to type ExternalName.\n\nThis field may hold a maximum of two entries (dual-stack families, in either order).  These families must correspond to the values of the clusterIPs field, if specified. Both clusterIPs and ipFamilies are governed by the ipFamilyPolicy field.',
        ...ATOMIC_STRING_LIST,
      },
      ipFamilyPolicy: {
        description:
          'IPFamilyPolicy represents the dual-stack-ness requested or required by this Service. If there is no value provided, then this field will be set to SingleStack. Services can be "SingleStack" (a single IP family), "PreferDualStack" (two IP families on dual-stack configured clusters or a single IP family on single-stack clusters), or "RequireDualStack" (two IP families on dual-stack configured clusters, otherwise fail). The ipFamilies and clusterIPs fields depend on the value of this field. This field will be wiped when updating a service to type ExternalName.',
        type: 'string',
      },
      loadBalancerClass: {
        description:
          "loadBalancerClass is the class of the load balancer implementation this Service belongs to. If specified, the value of this field must be a label-style identifier, with an optional prefix, e.g. \"internal-vip\" or \"example.com/internal-vip\". Unprefixed names are reserved for end-users. This field can only be set when the Service type is 'LoadBalancer'. If not set, the default load balancer implementation is used, today this is typically done through the cloud provider integration, but should apply for any default implementation. If set, it is assumed that a load balancer implementation is watching for Services with a matching class. Any default load balancer implementation (e.g. cloud providers) should ignore Services that set this field. This field can only be set when creating or updating a Service to type 'LoadBalancer'. Once set, it can not be changed. This field will be wiped when a service is updated to a non 'LoadBalancer' type.",
        type: 'string',
      },
      loadBalancerIP: {
        description:
          'Only applies to Service Type: LoadBalancer. This feature depends on whether the underlying cloud-provider supports specifying the loadBalancerIP when a load balancer is created. This field will be ignored if the cloud-provider does not support the feature. Deprecated: This field was under-specified and its meaning varies across implementations. Using it is non-portable and it may not support dual-stack. Users are encouraged to use implementation-specific annotations when available.',
        type: 'string',
      },
      loadBalancerSourceRanges: {
        description:
          'If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs. This field will be ignored if the cloud-provider does not support the feature." More info: https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/',
        ...ATOMIC_STRING_LIST,
      },
      ports: {
        description: 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
        items: { ...ref(CORE + 'ServicePort'), default: {} },
        type: 'array',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'port',
        'x-kubernetes-patch-strategy': 'merge',
      },
      publishNotReadyAddresses: {
        description:
          'publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready. The primary use case for setting this field is for a StatefulSet\'s Headless Service to propagate SRV DNS records for its Pods for the purpose of peer discovery. The Kubernetes controllers that generate Endpoints and EndpointSlice resources for Services interpret this to mean that all endpoints are considered "ready" even if the Pods themselves are not. Agents which consume only Kubernetes generated endpoints through the Endpoints or EndpointSlice resources can safely assume this behavior.',
        type: 'boolean',
      },
      selector: {
        additionalProperties: STRING_ITEMS,
        description:
          'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
      },
      sessionAffinity: {
        description:
          'Supports "ClientIP" and "None". Used to maintain session affinity. Enable client IP based session affinity. Must be ClientIP or None. Defaults to None. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
        type: 'string',
      },
      sessionAffinityConfig: {
        ...ref(CORE + 'SessionAffinityConfig'),
        description: 'sessionAffinityConfig contains the configurations of session affinity.',
      },
      trafficDistribution: {
        description:
          'TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints. Implementations can use this field as a hint, but are not required to guarantee strict adherence. If the field is not set, the implementation will apply its default routing strategy. If set to "PreferClose", implementations should prioritize endpoints that are topologically close (e.g., same zone). This is a beta field and requires enabling ServiceTrafficDistribution feature.',
        type: 'string',
      },
      type: {
        description:
          'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
        type: 'string',
      },
    },
    type: 'object',
  },
  [CORE + 'ServiceStatus']: {
    description: 'ServiceStatus represents the current status of a service.',
    properties: {
      conditions: {
        description: 'Current service state',
        items: { ...ref(META + 'Condition'), default: {} },
        type: 'array',
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      },
      loadBalancer: {
        ...ref(CORE + 'LoadBalancerStatus'),
        default: {},
        description: 'LoadBalancer contains the current status of the load-balancer, if one is present.',
      },
    },
    type: 'object',
  },
  [CORE + 'SessionAffinityConfig']: {
    description: 'SessionAffinityConfig represents the configurations of session affinity.',
    properties: {
      clientIP: {
        ...ref(CORE + 'ClientIPConfig'),
        description: 'clientIP contains the configurations of Client IP based session affinity.',
      },
    },
    type: 'object',
  },
  [META + 'Condition']: {
    description: 'Condition contains details for one aspect of the current state of this API Resource.',
    properties: {
      lastTransitionTime: {
        ...ref(META + 'Time'),
        description:
          'lastTransitionTime is the last time the condition transitioned from one status to another. This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.',
      },
      message: {
        default: '',
        description: 'message is a human readable message indicating details about the transition. This may be an empty string.',
        type: 'string',
      },
      observedGeneration: {
        description:
          'observedGeneration represents the .metadata.generation that the condition was set based upon. For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date with respect to the current state of the instance.',
        format: 'int64',
        type: 'integer',
      },
      reason: {
        default: '',
        description:
          "reason contains a programmatic identifier indicating the reason for the condition's last transition. Producers of specific condition types may define expected values and meanings for this field, and whether the values are considered a guaranteed API. The value should be a CamelCase string. This field may not be empty.",
        type: 'string',
      },
      status: {
        default: '',
        description: 'status of the condition, one of True, False, Unknown.',
        type: 'string',
      },
      type: {
        default: '',
        description: 'type of condition in CamelCase or in foo.example.com/CamelCase.',
        type: 'string',
      },
    },
    required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
    type: 'object',
  },
  [META + 'DeleteOptions']: {
    description: 'DeleteOptions may be provided when deleting an API object.',
    properties: {
      apiVersion: API_VERSION,
      dryRun: {
        description:
          'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
        ...ATOMIC_STRING_LIST,
      },
      gracePeriodSeconds: {
        description:
          'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
        format: 'int64',
        type: 'integer',
      },
      kind: KIND,
      orphanDependents: {
        description:
          'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
        type: 'boolean',
      },
      preconditions: {
        ...ref(META + 'Preconditions'),
        description: 'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.',
      },
      propagationPolicy: {
        description:
          "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
        type: 'string',
      },
    },
    type: 'object',
    // Upstream lists every group's DeleteOptions; only the core one is reachable here.
    'x-kubernetes-group-version-kind': gvk('DeleteOptions'),
  },
  [META + 'FieldsV1']: {
    description:
      "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position of a item in a list 'k:<keys>', where <keys> is a map of  a list item's key fields to their unique values If a key maps to an empty Fields value, the field that key represents is part of the set.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff",
    type: 'object',
  },
  [META + 'ListMeta']: {
    description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects. A resource may have only one of {ObjectMeta, ListMeta}.',
    properties: {
      continue: {
        description:
          'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available. The value is opaque and may be used to issue another request to the endpoint that served this list to retrieve the next set of available objects. Continuing a consistent list may not be possible if the server configuration has changed or more than a few minutes have passed. The resourceVersion field returned when using this continue value will be identical to the value in the first response, unless you have received this token from an error message.',
        type: 'string',
      },
      remainingItemCount: {
        description:
          'remainingItemCount is the number of subsequent items in the list which are not included in this list response. If the list request contained label or field selectors, then the number of remaining items is unknown and the field will be left unset and omitted during serialization. If the list is complete (either because it is not chunking or because this is the last chunk), then there are no more remaining items and this field will be left unset and omitted during serialization. Servers older than v1.15 do not set this field. The intended use of the remainingItemCount is *estimating* the size of a collection. Clients should not rely on the remainingItemCount to be set or to be exact.',
        format: 'int64',
        type: 'integer',
      },
      resourceVersion: {
        description:
          "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Value must be treated as opaque by clients and passed unmodified back to the server. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency",
        type: 'string',
      },
      selfLink: {
        description: 'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
        type: 'string',
      },
    },
    type: 'object',
  },
  [META + 'ManagedFieldsEntry']: {
    description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
    properties: {
      apiVersion: {
        description:
          'APIVersion defines the version of this resource that this field set applies to. The format is "group/version" just like the top-level APIVersion field. It is necessary to track the version of a field set because it cannot be automatically converted.',
        type: 'string',
      },
      fieldsType: {
        description: 'FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"',
        type: 'string',
      },
      fieldsV1: {
        ...ref(META + 'FieldsV1'),
        description: 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.',
      },
      manager: {
        description: 'Manager is an identifier of the workflow managing these fields.',
        type: 'string',
      },
      operation: {
        description: "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'.",
        type: 'string',
      },
      subresource: {
        description:
          'Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource. The value of this field is used to distinguish between managers, even if they share the same name. For example, a status update will be distinct from a regular update using the same manager name. Note that the APIVersion field is not related to the Subresource field and it always corresponds to the version of the main resource.',
        type: 'string',
      },
      time: {
        ...ref(META + 'Time'),
        description:
          'Time is the timestamp of when the ManagedFields entry was added. The timestamp will also be updated if a field is added, the manager changes any of the owned fields value or removes a field. The timestamp does not update when a field is removed from the entry because another manager took it over.',
      },
    },
    type: 'object',
  },
  [META + 'ObjectMeta']: {
    description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    properties: {
      annotations: {
        additionalProperties: STRING_ITEMS,
        description:
          'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations',
        type: 'object',
      },
      creationTimestamp: {
        ...ref(META + 'Time'),
        description:
          'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
      },
      deletionGracePeriodSeconds: {
        description:
          'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only.',
        format: 'int64',
        type: 'integer',
      },
      deletionTimestamp: {
        ...ref(META + 'Time'),
        description:
          'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client. The resource is expected to be deleted (no longer visible from resource lists, and not reachable by name) after the time in this field, once the finalizers list is empty. As long as the finalizers list contains items, deletion is blocked. Once the deletionTimestamp is set, this value may not be unset or be set further into the future, although it may be shortened or the resource may be deleted prior to this time. For example, a user may request that a pod is deleted in 30 seconds. The Kubelet will react by sending a graceful termination signal to the containers in the pod. After that 30 seconds, the Kubelet will send a hard termination signal (SIGKILL) to the container and after cleanup, remove the pod from the API. In the presence of network partitions, this object may still exist after this timestamp, until an administrator or automated process can determine the resource is fully terminated. If not set, graceful deletion of the object has not been requested.\n\nPopulated by the system when a graceful deletion is requested. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
      },
      finalizers: {
        description:
          'Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed. Finalizers may be processed and removed in any order.  Order is NOT enforced because it introduces significant risk of stuck finalizers. finalizers is a shared field, any actor with permission can reorder it. If the finalizer list is processed in order, then this can lead to a situation in which the component responsible for the first finalizer in the list is waiting for a signal (field value, external system, or other) produced by a component responsible for a finalizer later in the list, resulting in a deadlock. Without enforced ordering finalizers are free to order amongst themselves and are not vulnerable to ordering changes in the list.',
        items: STRING_ITEMS,
        type: 'array',
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
      generateName: {
        description:
          'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided. If this field is used, the name returned to the client will be different than the name passed. This value will also be combined with a unique suffix. The provided value has the same validation rules as the Name field, and may be truncated by the length of the suffix required to make the value unique on the server.\n\nIf this field is specified and the generated name exists, the server will return a 409.\n\nApplied only if Name is not specified. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#idempotency',
        type: 'string',
      },
      generation: {
        description: 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.',
        format: 'int64',
        type: 'integer',
      },
      labels: {
        additionalProperties: STRING_ITEMS,
        description:
          'Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels',
        type: 'object',
      },
      managedFields: {
        description:
          "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field. A workflow can be the user's name, a controller's name, or the name of a specific apply path like \"ci-cd\". The set of fields is always in the version that the workflow used when modifying the object.",
        items: { ...ref(META + 'ManagedFieldsEntry'), default: {} },
        type: 'array',
        'x-kubernetes-list-type': 'atomic',
      },
      name: {
        description:
          'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
        type: 'string',
      },
      namespace: {
        description:
          'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty.\n\nMust be a DNS_LABEL. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces',
        type: 'string',
      },
      ownerReferences: {
        description:
          'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected. If this object is managed by a controller, then an entry in this list will point to this controller, with the controller field set to true. There cannot be more than one managing controller.',
        items: { ...ref(META + 'OwnerReference'), default: {} },
        type: 'array',
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
      resourceVersion: {
        description:
          'An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. May be used for optimistic concurrency, change detection, and the watch operation on a resource or set of resources. Clients must treat these values as opaque and passed unmodified back to the server. They may only be valid for a particular resource or set of resources.\n\nPopulated by the system. Read-only. Value must be treated as opaque by clients and . More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency',
        type: 'string',
      },
      selfLink: {
        description: 'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
        type: 'string',
      },
      uid: {
        description:
          'UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations.\n\nPopulated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
        type: 'string',
      },
    },
    type: 'object',
  },
  [META + 'OwnerReference']: {
    description:
      'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
    properties: {
      apiVersion: {
        default: '',
        description: 'API version of the referent.',
        type: 'string',
      },
      blockOwnerDeletion: {
        description:
          'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed. See https://kubernetes.io/docs/concepts/architecture/garbage-collection/#foreground-deletion for how the garbage collector interacts with this field and enforces the foreground deletion. Defaults to false. To set this field, a user needs "delete" permission of the owner, otherwise 422 (Unprocessable Entity) will be returned.',
        type: 'boolean',
      },
      controller: {
        description: 'If true, this reference points to the managing controller.',
        type: 'boolean',
      },
      kind: {
        default: '',
        description: 'Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
        type: 'string',
      },
      name: {
        default: '',
        description: 'Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
        type: 'string',
      },
      uid: {
        default: '',
        description: 'UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
        type: 'string',
      },
    },
    required: ['apiVersion', 'kind', 'name', 'uid'],
    type: 'object',
    'x-kubernetes-map-type': 'atomic',
  },
  [META + 'Patch']: {
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    type: 'object',
  },
  [META + 'Preconditions']: {
    description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
    properties: {
      resourceVersion: {
        description: 'Specifies the target ResourceVersion',
        type: 'string',
      },
      uid: {
        description: 'Specifies the target UID.',
        type: 'string',
      },
    },
    type: 'object',
  },
  [META + 'Status']: {
    description: "Status is a return value for calls that don't return other objects.",
    properties: {
      apiVersion: API_VERSION,
      code: {
        description: 'Suggested HTTP return code for this status, 0 if not set.',
        format: 'int32',
        type: 'integer',
      },
      details: {
        ...ref(META + 'StatusDetails'),
        description:
          'Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type.',
        'x-kubernetes-list-type': 'atomic',
      },
      kind: KIND,
      message: {
        description: 'A human-readable description of the status of this operation.',
        type: 'string',
      },
      metadata: LIST_METADATA,
      reason: {
        description:
          'A machine-readable description of why this operation is in the "Failure" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it.',
        type: 'string',
      },
      status: {
        description: 'Status of the operation. One of: "Success" or "Failure". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
        type: 'string',
      },
    },
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('Status'),
  },
  [META + 'StatusCause']: {
    description: 'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
    properties: {
      field: {
        description:
          'The field of the resource that has caused this error, as named by its JSON serialization. May include dot and postfix notation for nested attributes. Arrays are zero-indexed.  Fields may appear more than once in an array of causes due to fields having multiple errors. Optional.\n\nExamples:\n  "name" - the field "name" on the current resource\n  "items[0].name" - the field "name" on the first array entry in "items"',
        type: 'string',
      },
      message: {
        description: 'A human-readable description of the cause of the error.  This field may be presented as-is to a reader.',
        type: 'string',
      },
      reason: {
        description: 'A machine-readable description of the cause of the error. If this value is empty there is no information available.',
        type: 'string',
      },
    },
    type: 'object',
  },
  [META + 'StatusDetails']: {
    description:
      'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response. The Reason field of a Status object defines what attributes will be set. Clients must ignore fields that do not match the defined type of each attribute, and should assume that any attribute may be empty, invalid, or under defined.',
    properties: {
      causes: {
        description: 'The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes.',
        items: { ...ref(META + 'StatusCause'), default: {} },
        type: 'array',
        'x-kubernetes-list-type': 'atomic',
      },
      group: {
        description: 'The group attribute of the resource associated with the status StatusReason.',
        type: 'string',
      },
      kind: {
        description:
          'The kind attribute of the resource associated with the status StatusReason. On some operations may differ from the requested resource Kind. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
        type: 'string',
      },
      name: {
        description: 'The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).',
        type: 'string',
      },
      retryAfterSeconds: {
        description:
          'If specified, the time in seconds before the operation should be retried. Some errors may indicate the client must take an alternate action - for those errors this field may indicate how long to wait before taking the alternate action.',
        format: 'int32',
        type: 'integer',
      },
      uid: {
        description: 'UID of the resource. (when there is a single resource which can be described). More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
        type: 'string',
      },
    },
    type: 'object',
  },
  [META + 'Time']: {
    description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
    format: 'date-time',
    type: 'string',
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    description:
      'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
  },
};
