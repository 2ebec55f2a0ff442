import { externallyAccessible, needsHealthCheck } from './service-exposure';

describe('service exposure', () => {
  it.each([
    [{ type: 'LoadBalancer' as const }, true],
    [{ type: 'NodePort' as const }, true],
    [{ type: 'ClusterIP' as const, externalIPs: ['192.0.2.1'] }, true],
    [{ type: 'ClusterIP' as const }, false],
    [{ type: 'ClusterIP' as const, externalIPs: [] }, false],
    [{ type: 'ExternalName' as const }, false],
  ])('given a spec %j, when asked whether it is externally accessible, then %s', (spec, expected) => {
    expect(externallyAccessible(spec)).toBe(expected);
  });

  it.each([
    [{ type: 'LoadBalancer' as const, externalTrafficPolicy: 'Local' as const }, true],
    [{ type: 'LoadBalancer' as const, externalTrafficPolicy: 'Cluster' as const }, false],
    [{ type: 'NodePort' as const, externalTrafficPolicy: 'Local' as const }, false],
  ])('given a spec %j, when asked whether it needs a health-check node port, then %s', (spec, expected) => {
    expect(needsHealthCheck(spec)).toBe(expected);
  });
});
