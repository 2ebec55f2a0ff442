import { type Service, type ServiceSpec, type ServiceStatus } from './service.types';
import { applyServiceDefaults } from './service-defaults';
import { externallyAccessible } from './service-exposure';

const svc = (spec: ServiceSpec, status: ServiceStatus = { loadBalancer: {} }): Service => ({
  kind: 'Service',
  apiVersion: 'v1',
  metadata: { name: 'web' },
  spec,
  status,
});

const specOf = (spec: ServiceSpec): ServiceSpec => applyServiceDefaults(svc(spec)).spec;

describe('applyServiceDefaults (SetDefaults_Service)', () => {
  describe('1-3. sessionAffinity and its config', () => {
    it.each<[string, ServiceSpec, Partial<ServiceSpec>]>([
      ['empty affinity becomes None', {}, { sessionAffinity: 'None', sessionAffinityConfig: undefined }],
      ['None drops a config', { sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }, { sessionAffinity: 'None', sessionAffinityConfig: undefined }],
      ['empty affinity also drops a config', { sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }, { sessionAffinity: 'None', sessionAffinityConfig: undefined }],
      ['ClientIP without config gets 10800s', { sessionAffinity: 'ClientIP' }, { sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } }],
      ['ClientIP with empty config gets 10800s', { sessionAffinity: 'ClientIP', sessionAffinityConfig: {} }, { sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } }],
      ['ClientIP with empty clientIP gets 10800s', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: {} } }, { sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } }],
      [
        'ClientIP keeps a given timeout, even 0',
        { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } },
        { sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } },
      ],
      ['an unknown affinity is left alone', { sessionAffinity: 'Foo', sessionAffinityConfig: {} }, { sessionAffinity: 'Foo', sessionAffinityConfig: {} }],
    ])('%s', (_name, input, expected) => {
      const { sessionAffinityConfig, ...rest } = expected;
      expect(specOf(input)).toMatchObject(rest);
      if (sessionAffinityConfig === undefined) expect(specOf(input)).not.toHaveProperty('sessionAffinityConfig');
      else expect(specOf(input).sessionAffinityConfig).toEqual(sessionAffinityConfig);
    });
  });

  describe('4. type', () => {
    it('defaults an empty type to ClusterIP and keeps others', () => {
      expect(specOf({}).type).toBe('ClusterIP');
      expect(specOf({ type: 'ExternalName' }).type).toBe('ExternalName');
      expect(specOf({ type: 'Foo' }).type).toBe('Foo');
    });
  });

  describe('5. ports', () => {
    it.each<[string, ServiceSpec['ports'], ServiceSpec['ports']]>([
      ['protocol TCP, targetPort = port', [{ port: 80 }], [{ port: 80, protocol: 'TCP', targetPort: 80 }]],
      [
        'targetPort 0 and "" count as unset',
        [
          { port: 80, targetPort: 0 },
          { port: 81, targetPort: '' },
        ],
        [
          { port: 80, protocol: 'TCP', targetPort: 80 },
          { port: 81, protocol: 'TCP', targetPort: 81 },
        ],
      ],
      ['targetPort becomes 0 when port is 0', [{ port: 0 }], [{ port: 0, protocol: 'TCP', targetPort: 0 }]],
      ['given values are kept', [{ port: 53, protocol: 'UDP', targetPort: 'dns' }], [{ port: 53, protocol: 'UDP', targetPort: 'dns' }]],
    ])('%s', (_name, ports, expected) => {
      expect(specOf({ ports }).ports).toEqual(expected);
    });
  });

  describe('6. externalTrafficPolicy for externally accessible services', () => {
    it.each<[ServiceSpec, string | undefined]>([
      [{ type: 'LoadBalancer' }, 'Cluster'],
      [{ type: 'NodePort' }, 'Cluster'],
      [{ type: 'ClusterIP', externalIPs: ['1.2.3.4'] }, 'Cluster'],
      [{ externalIPs: ['1.2.3.4'] }, 'Cluster'],
      [{ type: 'ClusterIP' }, undefined],
      [{ type: 'ClusterIP', externalIPs: [] }, undefined],
      [{ type: 'ExternalName', externalIPs: ['1.2.3.4'] }, undefined],
      [{ type: 'NodePort', externalTrafficPolicy: 'Local' }, 'Local'],
    ])('%j -> %s', (input, expected) => {
      expect(specOf(input).externalTrafficPolicy).toBe(expected);
    });

    it('exposes ExternallyAccessible', () => {
      expect(externallyAccessible({ type: 'ClusterIP', externalIPs: ['1.1.1.1'] })).toBe(true);
      expect(externallyAccessible({ type: 'ExternalName' })).toBe(false);
    });
  });

  describe('7. internalTrafficPolicy', () => {
    it.each<[ServiceSpec, string | undefined]>([
      [{}, 'Cluster'],
      [{ type: 'ClusterIP' }, 'Cluster'],
      [{ type: 'NodePort' }, 'Cluster'],
      [{ type: 'LoadBalancer' }, 'Cluster'],
      [{ type: 'ExternalName' }, undefined],
      [{ type: 'Foo' }, undefined],
      [{ type: 'ClusterIP', internalTrafficPolicy: 'Local' }, 'Local'],
      [{ type: 'ClusterIP', internalTrafficPolicy: '' }, ''],
    ])('%j -> %s', (input, expected) => {
      expect(specOf(input).internalTrafficPolicy).toBe(expected);
    });
  });

  describe('8. allocateLoadBalancerNodePorts', () => {
    it('is true for LoadBalancer only, and a given false is kept', () => {
      expect(specOf({ type: 'LoadBalancer' }).allocateLoadBalancerNodePorts).toBe(true);
      expect(specOf({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }).allocateLoadBalancerNodePorts).toBe(false);
      expect(specOf({ type: 'NodePort' }).allocateLoadBalancerNodePorts).toBeUndefined();
    });
  });

  describe('9. ingress ipMode', () => {
    const status: ServiceStatus = {
      loadBalancer: { ingress: [{ ip: '203.0.113.7' }, { hostname: 'lb.example.com' }, { ip: '203.0.113.8', ipMode: 'Proxy' }] },
    };

    it('defaults ipMode to VIP for ingress IPs when this object is a LoadBalancer', () => {
      expect(applyServiceDefaults(svc({ type: 'LoadBalancer' }, status)).status.loadBalancer.ingress).toEqual([
        { ip: '203.0.113.7', ipMode: 'VIP' },
        { hostname: 'lb.example.com' },
        { ip: '203.0.113.8', ipMode: 'Proxy' },
      ]);
    });

    it('does nothing when the object (e.g. a status body without spec) is not a LoadBalancer', () => {
      expect(applyServiceDefaults(svc({}, status)).status).toEqual(status);
      expect(applyServiceDefaults(svc({ type: 'NodePort' }, status)).status).toEqual(status);
    });
  });

  it('is pure: the input is not mutated', () => {
    const input = svc({ type: 'LoadBalancer', ports: [{ port: 80 }], sessionAffinity: 'ClientIP' }, { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } });
    const before = JSON.stringify(input);
    const out = applyServiceDefaults(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(out).not.toBe(input);
    expect(out.spec).toEqual({
      type: 'LoadBalancer',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
    });
  });

  it('is idempotent', () => {
    const once = applyServiceDefaults(svc({ type: 'NodePort', ports: [{ port: 1 }] }));
    expect(applyServiceDefaults(once)).toEqual(once);
  });
});
