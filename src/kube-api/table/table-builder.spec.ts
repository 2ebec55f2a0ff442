import type { Service } from '../../domain/service.types';
import { buildTable, type BuildTableOptions } from './table-builder';

const NOW = new Date('2025-01-01T12:00:00Z');

const web: Service = {
  metadata: {
    name: 'web',
    namespace: 'default',
    uid: '6f1c2d3e-0000-4000-8000-000000000001',
    resourceVersion: '102',
    creationTimestamp: '2025-01-01T10:00:00Z',
    labels: { tier: 'front', app: 'x' },
    annotations: { note: 'a' },
    managedFields: [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2025-01-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:ports': {} } },
      },
    ],
  },
  spec: {
    ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
    selector: { app: 'x' },
    clusterIP: '10.96.12.34',
    clusterIPs: ['10.96.12.34'],
    type: 'ClusterIP',
    sessionAffinity: 'None',
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    internalTrafficPolicy: 'Cluster',
  },
  status: { loadBalancer: {} },
};

const lb: Service = {
  metadata: { name: 'lb', namespace: 'default', uid: 'u-2', resourceVersion: '103', creationTimestamp: '2024-12-30T12:00:00Z' },
  spec: { ports: [{ protocol: 'TCP', port: 443, targetPort: 8443, nodePort: 31443 }], clusterIPs: ['10.96.0.8'], type: 'LoadBalancer' },
  status: { loadBalancer: {} },
};

const opts = (extra: Partial<BuildTableOptions> = {}): BuildTableOptions => ({
  now: NOW,
  includeObject: 'Metadata',
  apiVersion: 'meta.k8s.io/v1',
  ...extra,
});

const COLUMNS =
  '[{"name":"Name","type":"string","format":"name","description":"Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names","priority":0},' +
  '{"name":"Type","type":"string","format":"","description":"type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \\"ClusterIP\\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \\"None\\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \\"NodePort\\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \\"LoadBalancer\\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \\"ExternalName\\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types","priority":0},' +
  '{"name":"Cluster-IP","type":"string","format":"","description":"clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \\"None\\", empty string (\\"\\"), or a valid IP address. Setting this to \\"None\\" makes a \\"headless service\\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies","priority":0},' +
  '{"name":"External-IP","type":"string","format":"","description":"externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.","priority":0},' +
  '{"name":"Port(s)","type":"string","format":"","description":"The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies","priority":0},' +
  '{"name":"Age","type":"string","format":"","description":"CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\\n\\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata","priority":0},' +
  '{"name":"Selector","type":"string","format":"","description":"Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/","priority":1}]';

const WEB_CELLS = '["web","ClusterIP","10.96.12.34","<none>","80/TCP","120m","app=x"]';
const LB_CELLS = '["lb","LoadBalancer","10.96.0.8","<pending>","443:31443/TCP","2d","<none>"]';
const WEB_METADATA =
  '{"name":"web","namespace":"default","uid":"6f1c2d3e-0000-4000-8000-000000000001","resourceVersion":"102","creationTimestamp":"2025-01-01T10:00:00Z",' +
  '"labels":{"app":"x","tier":"front"},"annotations":{"note":"a"},' +
  '"managedFields":[{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2025-01-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:ports":{}}}}]}';
const LB_METADATA = '{"name":"lb","namespace":"default","uid":"u-2","resourceVersion":"103","creationTimestamp":"2024-12-30T12:00:00Z"}';

describe('buildTable', () => {
  it('a list, byte for byte (includeObject=Metadata, the default kubectl gets)', () => {
    const json = JSON.stringify(buildTable([web, lb], opts({ resourceVersion: '103' })));
    expect(json).toBe(
      '{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"103"},' +
        `"columnDefinitions":${COLUMNS},` +
        `"rows":[{"cells":${WEB_CELLS},"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":${WEB_METADATA}}},` +
        `{"cells":${LB_CELLS},"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":${LB_METADATA}}}]}`,
    );
  });

  it('an empty list has rows [] and metadata {} without a resourceVersion', () => {
    expect(JSON.stringify(buildTable([], opts()))).toBe(`{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":${COLUMNS},"rows":[]}`);
  });

  it('a chunked list carries continue and remainingItemCount (0 kept: it is a pointer)', () => {
    expect(buildTable([lb], opts({ resourceVersion: '103', continue: 'tok', remainingItemCount: 0 })).metadata).toEqual({
      resourceVersion: '103',
      continue: 'tok',
      remainingItemCount: 0,
    });
    expect(JSON.stringify(buildTable([lb], opts({ resourceVersion: '103', continue: 'tok', remainingItemCount: 4 })).metadata)).toBe(
      '{"resourceVersion":"103","continue":"tok","remainingItemCount":4}',
    );
  });

  it('a watch event after the first (NoHeaders): columnDefinitions null, one row', () => {
    expect(JSON.stringify(buildTable([lb], opts({ resourceVersion: '103', noHeaders: true })))).toBe(
      '{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"103"},"columnDefinitions":null,' +
        `"rows":[{"cells":${LB_CELLS},"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":${LB_METADATA}}}]}`,
    );
  });

  it('includeObject=None: the RawExtension renders null', () => {
    expect(JSON.stringify(buildTable([lb], opts({ includeObject: 'None', noHeaders: true })))).toBe(
      `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":null,"rows":[{"cells":${LB_CELLS},"object":null}]}`,
    );
  });

  it('includeObject=Object: the whole v1 Service in canonical order', () => {
    const row = JSON.stringify(buildTable([lb], opts({ includeObject: 'Object', noHeaders: true })).rows[0]);
    expect(row).toBe(
      `{"cells":${LB_CELLS},"object":{"kind":"Service","apiVersion":"v1","metadata":${LB_METADATA},` +
        '"spec":{"ports":[{"protocol":"TCP","port":443,"targetPort":8443,"nodePort":31443}],"clusterIPs":["10.96.0.8"],"type":"LoadBalancer"},"status":{"loadBalancer":{}}}}',
    );
  });

  it('v1beta1: the Table and its PartialObjectMetadata rows both say meta.k8s.io/v1beta1', () => {
    const json = JSON.stringify(buildTable([lb], opts({ apiVersion: 'meta.k8s.io/v1beta1', resourceVersion: '103' })));
    expect(json).toBe(
      '{"kind":"Table","apiVersion":"meta.k8s.io/v1beta1","metadata":{"resourceVersion":"103"},' +
        `"columnDefinitions":${COLUMNS},` +
        `"rows":[{"cells":${LB_CELLS},"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1beta1","metadata":${LB_METADATA}}}]}`,
    );
  });

  it('PartialObjectMetadata keeps a zero creationTimestamp as null (metav1.Time is never omitted)', () => {
    const bare: Service = { metadata: { name: 'x' }, spec: { type: 'ClusterIP' }, status: { loadBalancer: {} } };
    expect(JSON.stringify(buildTable([bare], opts()).rows[0])).toBe(
      '{"cells":["x","ClusterIP","<none>","<none>","<none>","<unknown>","<none>"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"x","creationTimestamp":null}}}',
    );
  });

  it('column definitions are fresh copies', () => {
    const table = buildTable([], opts());
    table.columnDefinitions![0].name = 'changed';
    expect(buildTable([], opts()).columnDefinitions![0].name).toBe('Name');
  });
});
