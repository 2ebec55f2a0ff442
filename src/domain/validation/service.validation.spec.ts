import { aggregateMessage, type FieldError } from '../errors/field-error';
import { InvalidError } from '../errors/domain-errors';
import { type ObjectMeta, type Service, type ServiceSpec } from '../service.types';
import { validateService, validateServiceCreate, validateServiceUpdate } from './service.validation';

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QNAME_NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const PORT_KEY_80 = 'core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}';

// Builders: decoded, defaulted and allocated Services as validation sees them.
const baseMeta = (): ObjectMeta => ({
  name: 'web',
  namespace: 'default',
  uid: 'uid-1',
  resourceVersion: '10',
  creationTimestamp: '2025-01-02T03:04:05Z',
});

function service(type: string, spec: Partial<ServiceSpec> = {}, meta: Partial<ObjectMeta> = {}): Service {
  const allocated: Partial<ServiceSpec> =
    type === 'ExternalName'
      ? {}
      : {
          clusterIP: '10.96.0.10',
          clusterIPs: ['10.96.0.10'],
          ipFamilies: ['IPv4'],
          ipFamilyPolicy: 'SingleStack',
          internalTrafficPolicy: 'Cluster',
        };
  const byType: Partial<ServiceSpec> =
    type === 'NodePort'
      ? { externalTrafficPolicy: 'Cluster' }
      : type === 'LoadBalancer'
        ? { externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true }
        : type === 'ExternalName'
          ? { externalName: 'example.com' }
          : {};
  const nodePort = type === 'NodePort' || type === 'LoadBalancer' ? { nodePort: 30080 } : {};
  return {
    metadata: { ...baseMeta(), ...meta },
    spec: {
      ports: type === 'ExternalName' ? undefined : [{ protocol: 'TCP', port: 80, targetPort: 80, ...nodePort }],
      selector: type === 'ExternalName' ? undefined : { app: 'web' },
      type,
      sessionAffinity: 'None',
      ...allocated,
      ...byType,
      ...spec,
    },
    status: { loadBalancer: {} },
  };
}

const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('validateService (ValidateService, §2.3)', () => {
  it.each<[string, Service, string[]]>([
    ['valid ClusterIP', service('ClusterIP'), []],
    ['valid NodePort', service('NodePort'), []],
    ['valid LoadBalancer', service('LoadBalancer'), []],
    // §8 case 15
    ['valid ExternalName with trailing dot', service('ExternalName', { externalName: 'example.com.' }), []],
    [
      'valid headless selectorless',
      service('ClusterIP', { clusterIP: 'None', clusterIPs: ['None'], ports: undefined, selector: undefined, ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' }),
      [],
    ],
    // §8 case 6
    ['name not DNS-1035', service('ClusterIP', {}, { name: '1web' }), [`metadata.name: Invalid value: "1web": ${DNS1035}`]],
    // §8 case 7
    ['no name', service('ClusterIP', {}, { name: undefined }), ['metadata.name: Required value: name or generateName is required']],
    // §8 case 34
    ['finalizer foo', service('ClusterIP', {}, { finalizers: ['foo'] }), ['metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified']],
    [
      'topology annotations disagree',
      service('ClusterIP', {}, { annotations: { 'service.kubernetes.io/topology-mode': 'Auto', 'service.kubernetes.io/topology-aware-hints': 'auto' } }),
      ['metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified'],
    ],
    // §8 case 8
    ['ClusterIP without ports', service('ClusterIP', { ports: [] }), ['spec.ports: Required value']],
    // §8 case 9
    [
      'two unnamed ports',
      service('ClusterIP', {
        ports: [
          { protocol: 'TCP', port: 80, targetPort: 80 },
          { protocol: 'TCP', port: 443, targetPort: 443 },
        ],
      }),
      ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'],
    ],
    // §8 case 11
    ['protocol HTTP', service('ClusterIP', { ports: [{ protocol: 'HTTP', port: 80, targetPort: 80 }] }), ['spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
    // §8 case 12: the key has Name "" and a zero TargetPort whatever the port carries.
    [
      'duplicate (protocol, port)',
      service('ClusterIP', {
        ports: [
          { name: 'a', protocol: 'TCP', port: 80, targetPort: 80 },
          { name: 'b', protocol: 'TCP', port: 80, targetPort: 'http', appProtocol: 'h2c' },
        ],
      }),
      [`spec.ports[1]: Duplicate value: ${PORT_KEY_80}`],
    ],
    [
      'same port, different protocols',
      service('ClusterIP', {
        ports: [
          { name: 'a', protocol: 'TCP', port: 53, targetPort: 53 },
          { name: 'b', protocol: 'UDP', port: 53, targetPort: 53 },
        ],
      }),
      [],
    ],
    // §8 case 13
    ['type Foo', service('Foo'), ['spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    // §8 case 14
    ['ExternalName without externalName', service('ExternalName', { externalName: undefined }), ['spec.externalName: Required value']],
    ['ExternalName "." only', service('ExternalName', { externalName: '.' }), ['spec.externalName: Required value']],
    ['ExternalName invalid (BadValue is the stripped name)', service('ExternalName', { externalName: 'Example.com.' }), [`spec.externalName: Invalid value: "Example.com": ${DNS1123_SUBDOMAIN}`]],
    // §8 case 16 (after normalizeClusterIPs copied clusterIP into clusterIPs)
    [
      'ExternalName with cluster IP fields',
      service('ExternalName', { clusterIP: '10.96.0.50', clusterIPs: ['10.96.0.50'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' }),
      [
        'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
        'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
        'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
      ],
    ],
    ['ExternalName with a nodePort is not rejected', service('ExternalName', { ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 }] }), []],
    ['headless LoadBalancer', service('LoadBalancer', { clusterIP: 'None', clusterIPs: ['None'] }), [`spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`]],
    ['headless NodePort', service('NodePort', { clusterIP: 'None', clusterIPs: ['None'] }), [`spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`]],
    // §5.2 example: port 0, targetPort defaulted to 0
    [
      'port 0',
      service('ClusterIP', { ports: [{ protocol: 'TCP', port: 0, targetPort: 0 }] }),
      ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive'],
    ],
    [
      'port name rules',
      service('ClusterIP', {
        ports: [
          { name: 'Http', protocol: 'TCP', port: 80, targetPort: 'web--' },
          { name: 'a.b', protocol: 'TCP', port: 81, targetPort: 81, appProtocol: 'a b' },
          { name: 'a.b', protocol: 'TCP', port: 82, targetPort: 82 },
        ],
      }),
      [
        `spec.ports[0].name: Invalid value: "Http": ${DNS1123_LABEL}`,
        'spec.ports[0].targetPort: Invalid value: "web--": must not contain consecutive hyphens',
        'spec.ports[0].targetPort: Invalid value: "web--": must not begin or end with a hyphen',
        'spec.ports[1].name: Invalid value: "a.b": must not contain dots',
        `spec.ports[1].appProtocol: Invalid value: "a b": ${QNAME_NAME_PART}`,
        'spec.ports[2].name: Invalid value: "a.b": must not contain dots',
        'spec.ports[2].name: Duplicate value: "a.b"',
      ],
    ],
    ['selector labels', service('ClusterIP', { selector: { app: 'bad value!' } }), [`spec.selector: Invalid value: "bad value!": ${LABEL_VALUE}`]],
    ['session affinity unsupported', service('ClusterIP', { sessionAffinity: 'Sticky' }), ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"']],
    // §8 case 26
    [
      'ClientIP timeout 0',
      service('ClusterIP', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } }),
      ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400'],
    ],
    ['ClientIP timeout 86400 accepted', service('ClusterIP', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86400 } } }), []],
    ['ClientIP without config', service('ClusterIP', { sessionAffinity: 'ClientIP' }), ['spec.sessionAffinityConfig: Required value: when session affinity type is ClientIP']],
    [
      'ClientIP without timeout',
      service('ClusterIP', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: {} } }),
      ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Required value: when session affinity type is ClientIP'],
    ],
    [
      'None with config',
      service('ClusterIP', { sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }),
      ['spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None'],
    ],
    ['cluster IP fields', service('ClusterIP', { clusterIPs: ['10.96.0.11'] }), ['spec.clusterIPs: Invalid value: []string{"10.96.0.11"}: first value must match `clusterIP`']],
    // §8 case 27 and the other special ranges
    [
      'external IPs',
      service('ClusterIP', {
        externalTrafficPolicy: 'Cluster',
        externalIPs: ['127.0.0.1', 'abc', '0.0.0.0', '169.254.1.1', '224.0.0.5', '::1', 'fe80::1', 'ff12::1', '::', '192.0.2.1'],
      }),
      [
        'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        `spec.externalIPs[1]: Invalid value: "abc": ${IP_MSG}`,
        'spec.externalIPs[2]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
        'spec.externalIPs[3]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
        'spec.externalIPs[4]: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
        'spec.externalIPs[5]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'spec.externalIPs[6]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
        'spec.externalIPs[7]: Invalid value: "ff12::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
        'spec.externalIPs[8]: Invalid value: "::": may not be unspecified (::)',
      ],
    ],
    // §8 case 23
    [
      'nodePort on ClusterIP',
      service('ClusterIP', { ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 }] }),
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
    // §8 case 22: the range check is the allocator's; validation accepts any nodePort number.
    ['nodePort 80 passes validation', service('NodePort', { ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort: 80 }] }), []],
    [
      'duplicate nodePorts by protocol',
      service('NodePort', {
        ports: [
          { name: 'a', protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 },
          { name: 'b', protocol: 'UDP', port: 81, targetPort: 81, nodePort: 30080 },
          { name: 'c', protocol: 'TCP', port: 82, targetPort: 82, nodePort: 30080 },
        ],
      }),
      ['spec.ports[2].nodePort: Duplicate value: 30080'],
    ],
    [
      'source ranges on ClusterIP (capital L)',
      service('ClusterIP', { loadBalancerSourceRanges: [' 10.0.0.0/8 ', 'foo'] }),
      ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'", `spec.LoadBalancerSourceRanges[1]: Invalid value: "foo": ${CIDR_MSG}`],
    ],
    [
      'source ranges annotation',
      service('NodePort', {}, { annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8, bar' } }),
      [
        "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Forbidden: may only be used when `type` is 'LoadBalancer'",
        `metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "bar": ${CIDR_MSG}`,
      ],
    ],
    [
      'source ranges field wins over annotation',
      service('LoadBalancer', { loadBalancerSourceRanges: ['10.0.0.0/8'] }, { annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': 'bar' } }),
      [],
    ],
    [
      'allocateLoadBalancerNodePorts on ClusterIP',
      service('ClusterIP', { allocateLoadBalancerNodePorts: false }),
      ["spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'"],
    ],
    ['LB without allocateLoadBalancerNodePorts (path quirk)', service('LoadBalancer', { allocateLoadBalancerNodePorts: undefined }), ['allocateLoadBalancerNodePorts: Required value']],
    ['loadBalancerClass on ClusterIP', service('ClusterIP', { loadBalancerClass: 'example.com/lb' }), ["spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"]],
    ['loadBalancerClass not qualified', service('LoadBalancer', { loadBalancerClass: 'a b' }), [`spec.loadBalancerClass: Invalid value: "a b": ${QNAME_NAME_PART}`]],
    // §8 case 28
    ['loadBalancerIP is not validated', service('LoadBalancer', { loadBalancerIP: 'not-an-ip' }), []],
    [
      'externalTrafficPolicy on internal service',
      service('ClusterIP', { externalTrafficPolicy: 'Cluster' }),
      ['spec.externalTrafficPolicy: Invalid value: "Cluster": may only be set for externally-accessible services'],
    ],
    ['externalTrafficPolicy missing on NodePort', service('NodePort', { externalTrafficPolicy: undefined }), ['spec.externalTrafficPolicy: Required value']],
    ['externalTrafficPolicy unsupported', service('NodePort', { externalTrafficPolicy: 'X' }), ['spec.externalTrafficPolicy: Unsupported value: "X": supported values: "Cluster", "Local"']],
    [
      'healthCheckNodePort not needed',
      service('NodePort', { externalTrafficPolicy: 'Local', healthCheckNodePort: 30001 }),
      ["spec.healthCheckNodePort: Invalid value: 30001: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"],
    ],
    ['healthCheckNodePort missing', service('LoadBalancer', { externalTrafficPolicy: 'Local' }), ['spec.healthCheckNodePort: Required value']],
    [
      'healthCheckNodePort out of range',
      service('LoadBalancer', { externalTrafficPolicy: 'Local', healthCheckNodePort: 70000 }),
      ['spec.healthCheckNodePort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ],
    ['internalTrafficPolicy missing', service('ClusterIP', { internalTrafficPolicy: undefined }), ['spec.internalTrafficPolicy: Required value']],
    [
      'internalTrafficPolicy unsupported (even on ExternalName)',
      service('ExternalName', { internalTrafficPolicy: 'X' }),
      ['spec.internalTrafficPolicy: Unsupported value: "X": supported values: "Cluster", "Local"'],
    ],
    ['trafficDistribution', service('ClusterIP', { trafficDistribution: 'PreferSameZone' }), ['spec.trafficDistribution: Unsupported value: "PreferSameZone": supported values: "PreferClose"']],
    [
      'rule order across the whole function',
      service(
        'ClusterIP',
        {
          ports: [
            { protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 },
            { protocol: 'TCP', port: 80, targetPort: 80 },
          ],
          selector: { app: 'bad value!' },
          externalIPs: ['127.0.0.1'],
          loadBalancerSourceRanges: ['10.0.0.0/8'],
          trafficDistribution: 'X',
        },
        { name: '1web' },
      ),
      [
        `metadata.name: Invalid value: "1web": ${DNS1035}`,
        'spec.ports[0].name: Required value',
        'spec.ports[1].name: Required value',
        `spec.selector: Invalid value: "bad value!": ${LABEL_VALUE}`,
        'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
        `spec.ports[1]: Duplicate value: ${PORT_KEY_80}`,
        "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
        'spec.externalTrafficPolicy: Required value',
        'spec.trafficDistribution: Unsupported value: "X": supported values: "PreferClose"',
      ],
    ],
  ])('%s', (_name, svc, expected) => {
    expect(lines(validateService(svc))).toEqual(expected);
  });

  it('reports reasons as causes', () => {
    const errs = validateService(
      service('ClusterIP', {
        ports: [
          { name: 'a', protocol: 'TCP', port: 80, targetPort: 80 },
          { name: 'b', protocol: 'HTTP', port: 80, targetPort: 80 },
        ],
      }),
    );
    expect(errs.map((e) => e.reason)).toEqual(['FieldValueNotSupported']);
  });
});

describe('validateServiceCreate', () => {
  it('is ValidateService when it fails', () => {
    expect(lines(validateServiceCreate(service('ClusterIP', { ports: [] })))).toEqual(['spec.ports: Required value']);
  });

  it('then runs the generic metadata pass, which a valid Service passes', () => {
    expect(validateServiceCreate(service('ClusterIP'))).toEqual([]);
  });

  it('renders the §8 case 6 Status message', () => {
    const err = new InvalidError('Service', '1web', validateServiceCreate(service('ClusterIP', {}, { name: '1web' })));
    expect(err.message).toBe(`Service "1web" is invalid: metadata.name: Invalid value: "1web": ${DNS1035}`);
  });

  it('renders the §8 case 9 Status message with brackets', () => {
    const svc = service('ClusterIP', {
      ports: [
        { protocol: 'TCP', port: 80, targetPort: 80 },
        { protocol: 'TCP', port: 443, targetPort: 443 },
      ],
    });
    expect(new InvalidError('Service', 'web', validateServiceCreate(svc)).message).toBe('Service "web" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]');
  });
});

describe('validateServiceUpdate (generic metadata + ValidateServiceUpdate)', () => {
  const labelCause = `metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE}`;

  it.each<[string, Service, Service, string[]]>([
    ['unchanged', service('ClusterIP'), service('ClusterIP'), []],
    // §8 case 50: generic create pass, generic update pass, core update, ValidateService.
    ['invalid label appears four times', service('ClusterIP'), service('ClusterIP', {}, { labels: { app: 'bad value!' } }), [labelCause, labelCause, labelCause, labelCause]],
    // §8 case 51
    [
      'loadBalancerClass changed',
      service('LoadBalancer', { loadBalancerClass: 'a' }),
      service('LoadBalancer', { loadBalancerClass: 'b' }),
      ['spec.loadBalancerClass: Invalid value: "b": may not change once set'],
    ],
    ['loadBalancerClass unset', service('LoadBalancer', { loadBalancerClass: 'a' }), service('LoadBalancer'), ['spec.loadBalancerClass: Invalid value: "null": may not change once set']],
    [
      'invalid loadBalancerClass is reported twice (update check + ValidateService)',
      service('LoadBalancer', { loadBalancerClass: 'a b' }),
      service('LoadBalancer', { loadBalancerClass: 'a b' }),
      [`spec.loadBalancerClass: Invalid value: "a b": ${QNAME_NAME_PART}`, `spec.loadBalancerClass: Invalid value: "a b": ${QNAME_NAME_PART}`],
    ],
    ['LB → ClusterIP may drop the class freely', service('LoadBalancer', { loadBalancerClass: 'a' }), service('ClusterIP'), []],
    // §8 case 52: generic update + core update.
    [
      'new finalizer while deleting',
      service('ClusterIP', {}, { deletionTimestamp: '2025-02-03T04:05:06Z', deletionGracePeriodSeconds: 0, finalizers: ['a.io/y'] }),
      service('ClusterIP', {}, { deletionTimestamp: '2025-02-03T04:05:06Z', deletionGracePeriodSeconds: 0, finalizers: ['a.io/y', 'example.com/x'] }),
      [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/x"}',
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/x"}',
      ],
    ],
    [
      'cluster IP changed',
      service('ClusterIP'),
      service('ClusterIP', { clusterIP: '10.96.0.99', clusterIPs: ['10.96.0.99'] }),
      ['spec.clusterIPs[0]: Invalid value: []string{"10.96.0.99"}: may not change once set'],
    ],
    [
      'ipFamilies changed',
      service('ClusterIP'),
      service('ClusterIP', { ipFamilies: ['IPv6'] }),
      [
        'spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv6"}: may not change once set',
        'spec.clusterIPs[0]: Invalid value: "10.96.0.10": expected an IPv6 value as indicated by `ipFamilies[0]`',
      ],
    ],
    [
      'healthCheckNodePort changed',
      service('LoadBalancer', { externalTrafficPolicy: 'Local', healthCheckNodePort: 30001 }),
      service('LoadBalancer', { externalTrafficPolicy: 'Local', healthCheckNodePort: 30002 }),
      ['spec.healthCheckNodePort: Forbidden: field is immutable'],
    ],
    ['ExternalName → ClusterIP skips IP immutability', service('ExternalName'), service('ClusterIP'), []],
  ])('%s', (_name, oldSvc, newSvc, expected) => {
    expect(lines(validateServiceUpdate(newSvc, oldSvc))).toEqual(expected);
  });

  it('§8 case 50: message lists the label cause once, without brackets; causes keep all four', () => {
    const errs = validateServiceUpdate(service('ClusterIP', {}, { labels: { app: 'bad value!' } }), service('ClusterIP'));
    const err = new InvalidError('Service', 'web', errs);
    expect(err.message).toBe(`Service "web" is invalid: ${labelCause}`);
    expect(aggregateMessage(errs)).toBe(labelCause);
    expect(err.details?.causes).toHaveLength(4);
    expect(err.details?.causes?.[0]).toEqual({ reason: 'FieldValueInvalid', message: labelCause.replace('metadata.labels: ', ''), field: 'metadata.labels' });
  });
});
