import fc from 'fast-check';
import { type DomainError, InternalServerError, InvalidError, RawServerError } from '../errors/domain-errors';
import { type Service, type ServiceSpec } from '../service.types';
import { type ClusterIPRange, ipOffset, kubernetesServiceIP, parseClusterIPRange } from './cluster-ip-range';
import { type AllocationContext } from './allocation-context';
import { nodePortRangeContains, parseNodePortRange } from './node-port-range';
import { allocatedValues, allocationChanges, prepareServiceCreate, prepareServiceUpdate } from './service-allocation';

/** An in-memory allocation table playing the storage's part. */
class Table {
  readonly ips = new Set<string>();
  readonly ports = new Set<number>();
  constructor(readonly range: ClusterIPRange) {
    this.ips.add(kubernetesServiceIP(range));
  }
  ctx(random: () => number = () => 0.5): AllocationContext {
    return {
      clusterIPRange: this.range,
      nodePortRange: parseNodePortRange('30000-32767'),
      isClusterIPAllocated: (ip) => this.ips.has(ip),
      isNodePortAllocated: (port) => this.ports.has(port),
      random,
    };
  }
  commit(before: Service | undefined, after: Service | undefined): void {
    const { allocate, release } = allocationChanges(before, after);
    release.clusterIPs.forEach((ip) => this.ips.delete(ip));
    release.nodePorts.forEach((p) => this.ports.delete(p));
    allocate.clusterIPs.forEach((ip) => this.ips.add(ip));
    allocate.nodePorts.forEach((p) => this.ports.add(p));
  }
}

const single = () => new Table(parseClusterIPRange('10.96.0.0/12'));
const dual = () => new Table(parseClusterIPRange('10.96.0.0/12,fd00::/108'));

/** A decoded-and-defaulted body (SetDefaults_Service already ran). */
function svc(spec: Partial<ServiceSpec> = {}, name = 'web'): Service {
  const type = spec.type ?? 'ClusterIP';
  return {
    metadata: { name, namespace: 'default' },
    spec: {
      ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
      selector: { app: 'web' },
      type,
      sessionAffinity: 'None',
      ...(type === 'NodePort' || type === 'LoadBalancer' ? { externalTrafficPolicy: 'Cluster' } : {}),
      ...(type === 'ExternalName' ? {} : { internalTrafficPolicy: 'Cluster' }),
      ...(type === 'LoadBalancer' ? { allocateLoadBalancerNodePorts: true } : {}),
      ...spec,
    },
    status: { loadBalancer: {} },
  };
}

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected an error');
}

describe('prepareServiceCreate (BeginCreate)', () => {
  it('§8.1 ClusterIP: SingleStack IPv4, one IP from the upper band, input untouched', () => {
    const t = single();
    const input = svc();
    const out = prepareServiceCreate(input, t.ctx());
    expect(out.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(out.spec.ipFamilies).toEqual(['IPv4']);
    expect(out.spec.clusterIPs).toEqual([out.spec.clusterIP]);
    const offset = ipOffset(t.range.primary, out.spec.clusterIP!);
    expect(offset).not.toBeNull();
    expect(offset!).toBeGreaterThanOrEqual(256);
    expect(input.spec.clusterIP).toBeUndefined();
    expect(input.spec.ipFamilies).toBeUndefined();
  });

  it('§8.2 NodePort: nodePort allocated in range', () => {
    const out = prepareServiceCreate(svc({ type: 'NodePort' }), single().ctx());
    const np = out.spec.ports![0].nodePort!;
    expect(np).toBeGreaterThanOrEqual(30086);
    expect(np).toBeLessThanOrEqual(32767);
    expect(out.spec.healthCheckNodePort).toBeUndefined();
  });

  it('§8.3 LoadBalancer Local: nodePorts and a healthCheckNodePort', () => {
    let n = 0;
    const out = prepareServiceCreate(
      svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local' }),
      single().ctx(() => [0.1, 0.2, 0.3, 0.4][n++ % 4]),
    );
    const np = out.spec.ports![0].nodePort!;
    const hc = out.spec.healthCheckNodePort!;
    expect(nodePortRangeContains(parseNodePortRange('30000-32767'), hc)).toBe(true);
    expect(hc).not.toBe(np);
    expect(allocatedValues(out).nodePorts.sort()).toEqual([np, hc].sort());
  });

  it('§8.4 allocateLoadBalancerNodePorts:false leaves nodePort unset but honours explicit ones', () => {
    const out = prepareServiceCreate(
      svc({
        type: 'LoadBalancer',
        allocateLoadBalancerNodePorts: false,
        ports: [
          { name: 'a', protocol: 'TCP', port: 80, targetPort: 80 },
          { name: 'b', protocol: 'TCP', port: 81, targetPort: 81, nodePort: 30081 },
        ],
      }),
      single().ctx(),
    );
    expect(out.spec.ports![0].nodePort).toBeUndefined();
    expect(out.spec.ports![1].nodePort).toBe(30081);
  });

  it('§8.15 ExternalName gets no IP and no family fields', () => {
    const out = prepareServiceCreate(svc({ type: 'ExternalName', externalName: 'example.com.', ports: undefined }), single().ctx());
    expect(out.spec.clusterIP).toBeUndefined();
    expect(out.spec.clusterIPs).toBeUndefined();
    expect(out.spec.ipFamilies).toBeUndefined();
    expect(out.spec.ipFamilyPolicy).toBeUndefined();
    expect(allocatedValues(out)).toEqual({ clusterIPs: [], nodePorts: [] });
  });

  it('§8.16 ExternalName with clusterIP is only normalized (validation rejects it later)', () => {
    const out = prepareServiceCreate(svc({ type: 'ExternalName', externalName: 'a.b', clusterIP: '10.96.0.50' }), single().ctx());
    expect(out.spec.clusterIPs).toEqual(['10.96.0.50']);
  });

  it('reserves a requested IP as written', () => {
    const out = prepareServiceCreate(svc({ clusterIP: '10.96.0.10' }), single().ctx());
    expect(out.spec.clusterIP).toBe('10.96.0.10');
    expect(out.spec.clusterIPs).toEqual(['10.96.0.10']);
  });

  it('§8.18 requested IP outside the range', () => {
    const err = thrown(() => prepareServiceCreate(svc({ clusterIP: '1.1.1.1' }), single().ctx()));
    expect(err).toBeInstanceOf(InvalidError);
    expect(err.message).toBe(
      'Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"1.1.1.1"}: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
  });

  it('§8.19 requested IP already allocated (also the kubernetes service IP)', () => {
    const t = single();
    t.ips.add('10.96.0.10');
    expect(thrown(() => prepareServiceCreate(svc({ clusterIP: '10.96.0.10' }), t.ctx())).message).toBe(
      'Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    );
    expect(thrown(() => prepareServiceCreate(svc({ clusterIP: '10.96.0.1' }), t.ctx())).message).toContain('failed to allocate IP 10.96.0.1: provided IP is already allocated');
  });

  it('§8.20 clusterIPs without clusterIP fails with only the cluster-IP validation errors', () => {
    const err = thrown(() => prepareServiceCreate(svc({ clusterIPs: ['10.96.0.50'] }), single().ctx()));
    expect(err).toBeInstanceOf(InvalidError);
    expect(err.message).toBe('Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.50"}: must be empty when `clusterIP` is not specified');
  });

  it('§8.21 RequireDualStack on a single-stack cluster', () => {
    expect(thrown(() => prepareServiceCreate(svc({ ipFamilyPolicy: 'RequireDualStack' }), single().ctx())).message).toBe(
      'Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    );
  });

  it('family checks of initIPFamilyFields', () => {
    const ctx = single().ctx();
    expect(thrown(() => prepareServiceCreate(svc({ clusterIP: 'fd00::10' }), ctx)).message).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::10"}: IPv6 is not configured on this cluster',
    );
    expect(thrown(() => prepareServiceCreate(svc({ ipFamilies: ['IPv6'] }), ctx)).message).toBe('Service "web" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster');
    expect(thrown(() => prepareServiceCreate(svc({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] }), ctx)).message).toBe(
      'Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be \'RequireDualStack\' or \'PreferDualStack\' when multiple IP families are specified',
    );
  });

  it('PreferDualStack on a single-stack cluster stays single', () => {
    const out = prepareServiceCreate(svc({ ipFamilyPolicy: 'PreferDualStack' }), single().ctx());
    expect(out.spec.ipFamilyPolicy).toBe('PreferDualStack');
    expect(out.spec.ipFamilies).toEqual(['IPv4']);
    expect(out.spec.clusterIPs).toHaveLength(1);
  });

  it('headless selectorless: RequireDualStack, both families, no IP', () => {
    const out = prepareServiceCreate(svc({ clusterIP: 'None', selector: undefined }), single().ctx());
    expect(out.spec.ipFamilyPolicy).toBe('RequireDualStack');
    expect(out.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(out.spec.clusterIP).toBe('None');
    expect(out.spec.clusterIPs).toEqual(['None']);
    expect(allocatedValues(out).clusterIPs).toEqual([]);
  });

  it('headless with selector: SingleStack, primary family, no IP', () => {
    const out = prepareServiceCreate(svc({ clusterIP: 'None' }), single().ctx());
    expect(out.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(out.spec.ipFamilies).toEqual(['IPv4']);
    expect(out.spec.clusterIPs).toEqual(['None']);
  });

  it('dual-stack cluster: PreferDualStack gets one IP per family', () => {
    const out = prepareServiceCreate(svc({ ipFamilyPolicy: 'PreferDualStack' }), dual().ctx());
    expect(out.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(out.spec.clusterIPs).toHaveLength(2);
    expect(out.spec.clusterIPs![1]).toMatch(/^fd00::/);
    expect(out.spec.clusterIP).toBe(out.spec.clusterIPs![0]);
  });

  it('dual-stack: the BadValue of a failed request includes the "" marker of the other family', () => {
    expect(thrown(() => prepareServiceCreate(svc({ ipFamilyPolicy: 'RequireDualStack', clusterIP: '1.1.1.1' }), dual().ctx())).message).toBe(
      'Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"1.1.1.1", ""}: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
  });

  it('exhausted range is a 500', () => {
    const t = new Table(parseClusterIPRange('10.0.0.0/30')); // 2 usable, .1 held by kubernetes
    const first = prepareServiceCreate(svc(), t.ctx());
    expect(first.spec.clusterIP).toBe('10.0.0.2');
    t.commit(undefined, first);
    const err = thrown(() => prepareServiceCreate(svc({}, 'b'), t.ctx()));
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toBe('Internal error occurred: failed to allocate a serviceIP: range is full');
  });

  it('§8.22 nodePort outside the range', () => {
    const err = thrown(() => prepareServiceCreate(svc({ type: 'NodePort', ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort: 80 }] }), single().ctx()));
    expect(err).toBeInstanceOf(InvalidError);
    expect(err.message).toBe('Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767');
  });

  it('nodePort already allocated, including by an earlier port of the same request', () => {
    const t = single();
    t.ports.add(30080);
    const body = svc({ type: 'NodePort', ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 }] });
    expect(thrown(() => prepareServiceCreate(body, t.ctx())).message).toBe('Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const twoPorts = svc({
      type: 'NodePort',
      ports: [
        { name: 'a', protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30090 },
        { name: 'b', protocol: 'UDP', port: 81, targetPort: 81, nodePort: 30090 },
      ],
    });
    expect(thrown(() => prepareServiceCreate(twoPorts, single().ctx())).message).toBe('Service "web" is invalid: spec.ports[1].nodePort: Invalid value: 30090: provided port is already allocated');
  });

  it('ports sharing a port number share one nodePort', () => {
    const ports = [
      { name: 'dns-tcp', protocol: 'TCP', port: 53, targetPort: 53 },
      { name: 'dns-udp', protocol: 'UDP', port: 53, targetPort: 53 },
    ];
    const out = prepareServiceCreate(svc({ type: 'NodePort', ports }), single().ctx());
    expect(out.spec.ports![0].nodePort).toBe(out.spec.ports![1].nodePort);
    expect(allocatedValues(out).nodePorts).toHaveLength(1);

    // A value requested on the later port is used for the earlier one too.
    const requested = prepareServiceCreate(svc({ type: 'NodePort', ports: [ports[0], { ...ports[1], nodePort: 30053 }] }), single().ctx());
    expect(requested.spec.ports!.map((p) => p.nodePort)).toEqual([30053, 30053]);
  });

  it('node ports exhausted is a 500', () => {
    const t = single();
    for (let p = 30000; p <= 32767; p++) t.ports.add(p);
    expect(thrown(() => prepareServiceCreate(svc({ type: 'NodePort' }), t.ctx())).message).toBe('Internal error occurred: failed to allocate a nodePort: range is full');
  });

  it('healthCheckNodePort failures are 500s', () => {
    const err = thrown(() => prepareServiceCreate(svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 80 }), single().ctx()));
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toBe('Internal error occurred: failed to allocate requested HealthCheck NodePort 80: provided port is not in the valid range. The range of valid ports is 30000-32767');
    const t = single();
    t.ports.add(31000);
    expect(thrown(() => prepareServiceCreate(svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31000 }), t.ctx())).message).toBe(
      'Internal error occurred: failed to allocate requested HealthCheck NodePort 31000: provided port is already allocated',
    );
  });
});

describe('prepareServiceUpdate (BeginUpdate)', () => {
  function created(t: Table, spec: Partial<ServiceSpec> = {}): Service {
    const out = prepareServiceCreate(svc(spec), t.ctx());
    t.commit(undefined, out);
    return out;
  }

  it('re-submitting the original manifest keeps the allocated values (patchAllocatedValues)', () => {
    const t = single();
    const old = created(t, { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 80 }] });
    const out = prepareServiceUpdate(old, svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 80 }] }), t.ctx());
    expect(out.spec.clusterIP).toBe(old.spec.clusterIP);
    expect(out.spec.clusterIPs).toEqual(old.spec.clusterIPs);
    expect(out.spec.ports![0].nodePort).toBe(old.spec.ports![0].nodePort);
    expect(out.spec.healthCheckNodePort).toBe(old.spec.healthCheckNodePort);
    expect(out.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(allocationChanges(old, out)).toEqual({ allocate: { clusterIPs: [], nodePorts: [] }, release: { clusterIPs: [], nodePorts: [] } });
  });

  it('clearing clusterIP on update is silently undone', () => {
    const t = single();
    const old = created(t);
    const out = prepareServiceUpdate(old, { ...old, spec: { ...old.spec, clusterIP: '', clusterIPs: undefined } }, t.ctx());
    expect(out.spec.clusterIP).toBe(old.spec.clusterIP);
    expect(out.spec.clusterIPs).toEqual(old.spec.clusterIPs);
  });

  it('a changed clusterIP with untouched clusterIPs moves into clusterIPs (validation then rejects it)', () => {
    const t = single();
    const old = created(t);
    const out = prepareServiceUpdate(old, { ...old, spec: { ...old.spec, clusterIP: '10.96.0.99' } }, t.ctx());
    expect(out.spec.clusterIPs).toEqual(['10.96.0.99']);
  });

  it('ClusterIP → NodePort allocates node ports; NodePort → ClusterIP releases them', () => {
    const t = single();
    const old = created(t);
    const np = prepareServiceUpdate(old, { ...old, spec: { ...old.spec, type: 'NodePort', externalTrafficPolicy: 'Cluster' } }, t.ctx());
    const port = np.spec.ports![0].nodePort!;
    expect(port).toBeGreaterThanOrEqual(30000);
    expect(allocationChanges(old, np).allocate.nodePorts).toEqual([port]);
    t.commit(old, np);

    const back = prepareServiceUpdate(np, { ...np, spec: { ...np.spec, type: 'ClusterIP' } }, t.ctx());
    expect(allocationChanges(np, back).release.nodePorts).toEqual([port]);
  });

  it('keeps node ports the old object held without re-checking, checks new ones', () => {
    const t = single();
    const old = created(t, { type: 'NodePort', ports: [{ name: 'a', protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 }] });
    expect(() => prepareServiceUpdate(old, old, t.ctx())).not.toThrow();

    t.ports.add(30090);
    const taken = {
      ...old,
      spec: {
        ...old.spec,
        ports: [old.spec.ports![0], { name: 'b', protocol: 'TCP', port: 81, targetPort: 81, nodePort: 30090 }],
      },
    };
    expect(thrown(() => prepareServiceUpdate(old, taken, t.ctx())).message).toBe('Service "web" is invalid: spec.ports[1].nodePort: Invalid value: 30090: provided port is already allocated');
  });

  it('two ports with the same (protocol, nodePort) on update are a bare 500', () => {
    const t = single();
    const old = created(t, { type: 'NodePort', ports: [{ name: 'a', protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 }] });
    const dup = {
      ...old,
      spec: {
        ...old.spec,
        ports: [old.spec.ports![0], { name: 'b', protocol: 'TCP', port: 81, targetPort: 81, nodePort: 30080 }],
      },
    };
    const err = thrown(() => prepareServiceUpdate(old, dup, t.ctx()));
    expect(err).toBeInstanceOf(RawServerError);
    expect(err.message).toBe('duplicate nodePort: {TCP 30080}');
  });

  it('ExternalName → ClusterIP allocates; ClusterIP → ExternalName releases', () => {
    const t = single();
    const ext = prepareServiceCreate(svc({ type: 'ExternalName', externalName: 'a.example' }), t.ctx());
    const toClusterIP = prepareServiceUpdate(ext, svc(), t.ctx());
    expect(toClusterIP.spec.clusterIPs).toHaveLength(1);
    expect(toClusterIP.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(allocationChanges(ext, toClusterIP).allocate.clusterIPs).toEqual(toClusterIP.spec.clusterIPs);
    t.commit(ext, toClusterIP);

    const back = prepareServiceUpdate(toClusterIP, { ...toClusterIP, spec: { ...toClusterIP.spec, type: 'ExternalName', externalName: 'a.example' } }, t.ctx());
    expect(allocationChanges(toClusterIP, back).release.clusterIPs).toEqual(toClusterIP.spec.clusterIPs);
  });

  it('becoming LoadBalancer/Local allocates a healthCheckNodePort; leaving releases it', () => {
    const t = single();
    const old = created(t, { type: 'LoadBalancer' });
    const local = prepareServiceUpdate(old, { ...old, spec: { ...old.spec, externalTrafficPolicy: 'Local' } }, t.ctx());
    expect(local.spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    t.commit(old, local);
    const cluster = prepareServiceUpdate(local, { ...local, spec: { ...local.spec, externalTrafficPolicy: 'Cluster' } }, t.ctx());
    expect(allocationChanges(local, cluster).release.nodePorts).toEqual([local.spec.healthCheckNodePort]);
  });

  it('dual-stack upgrade allocates the secondary IP; SingleStack downgrade releases it', () => {
    const t = dual();
    const old = created(t);
    expect(old.spec.ipFamilies).toEqual(['IPv4']);
    const up = prepareServiceUpdate(old, { ...old, spec: { ...old.spec, ipFamilyPolicy: 'RequireDualStack' } }, t.ctx());
    expect(up.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(up.spec.clusterIPs![0]).toBe(old.spec.clusterIP);
    expect(up.spec.clusterIPs![1]).toMatch(/^fd00::/);
    t.commit(old, up);

    const down = prepareServiceUpdate(up, { ...up, spec: { ...up.spec, ipFamilyPolicy: 'SingleStack' } }, t.ctx());
    expect(down.spec.clusterIPs).toEqual([old.spec.clusterIP]);
    expect(down.spec.ipFamilies).toEqual(['IPv4']);
    expect(allocationChanges(up, down).release.clusterIPs).toEqual([up.spec.clusterIPs![1]]);
  });

  it('reducing clusterIPs without SingleStack is rejected', () => {
    const t = dual();
    const old = created(t, { ipFamilyPolicy: 'PreferDualStack' });
    const err = thrown(() => prepareServiceUpdate(old, { ...old, spec: { ...old.spec, clusterIPs: [old.spec.clusterIP!], ipFamilyPolicy: 'RequireDualStack' } }, t.ctx()));
    expect(err.message).toBe('Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": must be \'SingleStack\' to release the secondary cluster IP');
  });

  it('a nil ipFamilyPolicy inherits the old one', () => {
    const t = single();
    const old = created(t, { ipFamilyPolicy: 'PreferDualStack' });
    const out = prepareServiceUpdate(old, { ...old, spec: { ...old.spec, ipFamilyPolicy: undefined } }, t.ctx());
    expect(out.spec.ipFamilyPolicy).toBe('PreferDualStack');
  });

  it('does not mutate its inputs', () => {
    const t = single();
    const old = created(t);
    const body = svc({ type: 'NodePort' });
    const snapshot = JSON.stringify([old, body]);
    prepareServiceUpdate(old, body, t.ctx());
    expect(JSON.stringify([old, body])).toBe(snapshot);
  });
});

describe('allocatedValues', () => {
  it('lists canonical IPs and each node port once', () => {
    const s = svc({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      clusterIP: '010.96.0.10',
      clusterIPs: ['010.96.0.10', 'FD00::10'],
      healthCheckNodePort: 31000,
      ports: [
        { name: 'a', protocol: 'TCP', port: 53, nodePort: 30053 },
        { name: 'b', protocol: 'UDP', port: 53, nodePort: 30053 },
      ],
    });
    expect(allocatedValues(s)).toEqual({ clusterIPs: ['10.96.0.10', 'fd00::10'], nodePorts: [30053, 31000] });
  });

  it('ignores node ports and health-check ports a type does not hold', () => {
    expect(allocatedValues(svc({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], healthCheckNodePort: 31000 })).nodePorts).toEqual([]);
    expect(allocatedValues(svc({ type: 'ExternalName', ports: [{ protocol: 'TCP', port: 80, nodePort: 30080 }] }))).toEqual({
      clusterIPs: [],
      nodePorts: [],
    });
  });
});

describe('property: create/delete sequences never double-allocate', () => {
  it('every live service holds distinct in-range IPs and node ports', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.double({ min: 0, max: 0.9999999, noNaN: true })), { maxLength: 60 }), (steps) => {
        const t = new Table(parseClusterIPRange('10.0.0.0/27'));
        const ctxRange = parseNodePortRange('30000-30020');
        const live: Service[] = [];
        let n = 0;
        for (const [del, rnd] of steps) {
          if (del && live.length > 0) {
            const [gone] = live.splice(Math.floor(rnd * live.length), 1);
            t.commit(gone, undefined);
            continue;
          }
          const ctx = { ...t.ctx(() => rnd), nodePortRange: ctxRange };
          let out: Service;
          try {
            out = prepareServiceCreate(svc({ type: 'NodePort' }, `s${n++}`), ctx);
          } catch (err) {
            expect(err).toBeInstanceOf(InternalServerError);
            continue;
          }
          t.commit(undefined, out);
          live.push(out);
        }
        const ips = live.map((s) => s.spec.clusterIP!);
        const ports = live.map((s) => s.spec.ports![0].nodePort!);
        expect(new Set(ips).size).toBe(ips.length);
        expect(new Set(ports).size).toBe(ports.length);
        expect(ips).not.toContain('10.0.0.1');
        ips.forEach((ip) => expect(ipOffset(t.range.primary, ip)).not.toBeNull());
        ports.forEach((p) => expect(nodePortRangeContains(ctxRange, p)).toBe(true));
      }),
    );
  });
});
