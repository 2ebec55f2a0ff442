// object-semantics.md §8 over real HTTPS on 127.0.0.1: exact codes, reasons, messages, causes.
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const NS = '/api/v1/namespaces/default/services';
const svc = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, ...metadata },
  spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
});
const lb = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => svc(name, { type: 'LoadBalancer', ...spec }, metadata);

describeEachBackend('Service API semantics (object-semantics.md §8)', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
  });
  afterAll(async () => {
    await t.stop();
  });

  const create = async (body: object) => {
    const res = await t.client.post(NS, body);
    expect(res.status).toBe(201);
    return res.json;
  };
  const invalid = (res: { status: number; json: any }, message: string) => {
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe('Invalid');
    expect(res.json.message).toBe(message);
  };

  describe('create and defaulting', () => {
    it('1: a minimal Service is defaulted and gets a cluster IP', async () => {
      const body = await create(svc('case1'));
      expect(body.kind).toBe('Service');
      expect(body.spec).toMatchObject({
        type: 'ClusterIP',
        sessionAffinity: 'None',
        ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      });
      expect(body.spec.clusterIPs).toEqual([body.spec.clusterIP]);
      expect(body.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\./);
      expect(body.status).toEqual({ loadBalancer: {} });
      expect(body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(body.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(body.metadata.generation).toBeUndefined();
      // Go struct order of the spec keys.
      expect(Object.keys(body.spec)).toEqual(['ports', 'selector', 'clusterIP', 'clusterIPs', 'type', 'sessionAffinity', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy']);
    });

    it('2: NodePort gets a node port and externalTrafficPolicy Cluster', async () => {
      const body = await create(svc('case2', { type: 'NodePort' }));
      expect(body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
      expect(body.spec.ports[0].nodePort).toBeLessThanOrEqual(32767);
      expect(body.spec.externalTrafficPolicy).toBe('Cluster');
    });

    it('3: LoadBalancer with Local traffic policy gets node ports and a health check port', async () => {
      const body = await create(lb('case3', { externalTrafficPolicy: 'Local' }));
      expect(body.spec.allocateLoadBalancerNodePorts).toBe(true);
      expect(body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
      expect(body.spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
      expect(body.spec.healthCheckNodePort).not.toBe(body.spec.ports[0].nodePort);
    });

    it('4: allocateLoadBalancerNodePorts=false leaves ports without nodePort', async () => {
      const body = await create(lb('case4', { allocateLoadBalancerNodePorts: false }));
      expect(body.spec.ports[0].nodePort).toBeUndefined();
    });

    it('5: status in a create body is wiped', async () => {
      const body = await create({ ...lb('case5'), status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
      expect(body.status).toEqual({ loadBalancer: {} });
    });

    it('6: an invalid name', async () => {
      invalid(
        await t.client.post(NS, svc('1web')),
        `Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      );
    });

    it('7: no name and no generateName', async () => {
      invalid(await t.client.post(NS, { metadata: {}, spec: { ports: [{ port: 80 }] } }), 'Service "" is invalid: metadata.name: Required value: name or generateName is required');
    });

    it('8: ClusterIP without ports', async () => {
      invalid(await t.client.post(NS, svc('case8', { ports: [] })), 'Service "case8" is invalid: spec.ports: Required value');
    });

    it('9: two unnamed ports', async () => {
      const res = await t.client.post(NS, svc('case9', { ports: [{ port: 80 }, { port: 443 }] }));
      invalid(res, 'Service "case9" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]');
      expect(res.json.details).toEqual({
        name: 'case9',
        kind: 'Service',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[0].name' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[1].name' },
        ],
      });
    });

    it('11: unsupported protocol', async () => {
      invalid(
        await t.client.post(NS, svc('case11', { ports: [{ port: 80, protocol: 'HTTP' }] })),
        'Service "case11" is invalid: spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      );
    });

    it('12: duplicate port', async () => {
      invalid(
        await t.client.post(
          NS,
          svc('case12', {
            ports: [
              { name: 'a', port: 80 },
              { name: 'b', port: 80 },
            ],
          }),
        ),
        'Service "case12" is invalid: spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      );
    });

    it('13: unsupported type', async () => {
      invalid(
        await t.client.post(NS, svc('case13', { type: 'Foo' })),
        'Service "case13" is invalid: spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      );
    });

    it('14: ExternalName without externalName', async () => {
      invalid(await t.client.post(NS, svc('case14', { type: 'ExternalName', ports: [] })), 'Service "case14" is invalid: spec.externalName: Required value');
    });

    it('15: ExternalName gets no cluster IP fields', async () => {
      const body = await create({ metadata: { name: 'case15' }, spec: { type: 'ExternalName', externalName: 'example.com.' } });
      for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy']) {
        expect(body.spec[key]).toBeUndefined();
      }
    });

    it('16: ExternalName with a clusterIP', async () => {
      invalid(
        await t.client.post(NS, svc('case16', { type: 'ExternalName', externalName: 'example.com', clusterIP: '10.96.0.50' })),
        'Service "case16" is invalid: spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      );
    });

    it('18: a cluster IP outside the range', async () => {
      invalid(
        await t.client.post(NS, svc('case18', { clusterIP: '1.1.1.1' })),
        'Service "case18" is invalid: spec.clusterIPs: Invalid value: []string{"1.1.1.1"}: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
      );
    });

    it('19: a cluster IP already held by another Service', async () => {
      const first = await create(svc('case19a'));
      const ip = first.spec.clusterIP;
      invalid(
        await t.client.post(NS, svc('case19b', { clusterIP: ip })),
        `Service "case19b" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated`,
      );
    });

    it('20: clusterIPs without clusterIP', async () => {
      invalid(
        await t.client.post(NS, svc('case20', { clusterIPs: ['10.96.0.50'] })),
        'Service "case20" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.50"}: must be empty when `clusterIP` is not specified',
      );
    });

    it('21: RequireDualStack on a single-stack cluster', async () => {
      invalid(
        await t.client.post(NS, svc('case21', { ipFamilyPolicy: 'RequireDualStack' })),
        'Service "case21" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
      );
    });

    it('22: a node port outside the range', async () => {
      invalid(
        await t.client.post(NS, svc('case22', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] })),
        'Service "case22" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
      );
    });

    it('23: a node port on a ClusterIP Service', async () => {
      invalid(
        await t.client.post(NS, svc('case23', { ports: [{ port: 80, nodePort: 30080 }] })),
        'Service "case23" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'',
      );
    });

    it('26: session affinity defaulting and validation', async () => {
      const none = await create(svc('case26a', { sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }));
      expect(none.spec.sessionAffinityConfig).toBeUndefined();
      const clientIP = await create(svc('case26b', { sessionAffinity: 'ClientIP' }));
      expect(clientIP.spec.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } });
      invalid(
        await t.client.post(NS, svc('case26c', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } })),
        'Service "case26c" is invalid: spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400',
      );
    });

    it('27: a loopback external IP', async () => {
      invalid(
        await t.client.post(NS, svc('case27', { externalIPs: ['127.0.0.1'] })),
        'Service "case27" is invalid: spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      );
    });

    it('28: loadBalancerIP is not validated', async () => {
      const body = await create(lb('case28', { loadBalancerIP: 'not-an-ip' }));
      expect(body.spec.loadBalancerIP).toBe('not-an-ip');
    });

    it('29: creating an existing name', async () => {
      await create(svc('case29'));
      const res = await t.client.post(NS, svc('case29'));
      expect(res.status).toBe(409);
      expect(res.text).toBe(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"services \\"case29\\" already exists","reason":"AlreadyExists","details":{"name":"case29","kind":"services"},"code":409}',
      );
    });

    it('32: a namespace in the body that differs from the URL', async () => {
      const res = await t.client.post(NS, svc('case32', {}, { namespace: 'other' }));
      expect(res.status).toBe(400);
      expect(res.json.reason).toBe('BadRequest');
      expect(res.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
    });

    it('33: unknown fields warn by default and fail with fieldValidation=Strict', async () => {
      const strict = await t.client.post(`${NS}?fieldValidation=Strict`, svc('case33', { foo: 'x' }));
      expect(strict.status).toBe(400);
      expect(strict.json.message).toBe('Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.foo"');
      const warn = await t.client.post(NS, svc('case33', { foo: 'x' }));
      expect(warn.status).toBe(201);
      expect(warn.headers.warning).toBe('299 - "unknown field \\"spec.foo\\""');
      expect(warn.json.spec.foo).toBeUndefined();
    });

    it('34: a finalizer that is neither standard nor qualified', async () => {
      invalid(
        await t.client.post(NS, svc('case34', {}, { finalizers: ['foo'] })),
        'Service "case34" is invalid: metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
      );
    });

    it('35: generateName', async () => {
      const body = await create({ metadata: { generateName: 'web-' }, spec: { ports: [{ port: 80 }] } });
      expect(body.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(body.metadata.generateName).toBe('web-');
    });

    it('resourceVersion on create is a raw 500 as in kube-apiserver', async () => {
      const res = await t.client.post(NS, svc('case-rv', {}, { resourceVersion: '5' }));
      expect(res.status).toBe(500);
      expect(res.text).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion should not be set on objects to be created","code":500}');
    });
  });

  describe('read and list', () => {
    it('36: GET of a missing Service has the exact body', async () => {
      const res = await t.client.get(`${NS}/nope`);
      expect(res.status).toBe(404);
      expect(res.text).toBe(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"services \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"services"},"code":404}',
      );
    });

    it('37: LIST is sorted, carries a resourceVersion and filters by field selectors', async () => {
      await create(svc('list-b', { type: 'NodePort' }));
      await create(svc('list-a'));
      const res = await t.client.get(NS);
      expect(res.status).toBe(200);
      expect(res.json.kind).toBe('ServiceList');
      expect(res.json.apiVersion).toBe('v1');
      expect(res.json.metadata.resourceVersion).toMatch(/^\d+$/);
      const names = res.json.items.map((i: any) => i.metadata.name);
      expect(names).toEqual([...names].sort());
      expect(res.json.items[0].kind).toBeUndefined();
      const nodePorts = await t.client.get(`${NS}?fieldSelector=spec.type=NodePort`);
      expect(nodePorts.json.items.every((i: any) => i.spec.type === 'NodePort')).toBe(true);
      expect(nodePorts.json.items.map((i: any) => i.metadata.name)).toContain('list-b');
      const bad = await t.client.get(`${NS}?fieldSelector=spec.foo=x`);
      expect(bad.status).toBe(400);
      expect(bad.json.message).toBe('field label not supported: spec.foo');
    });

    it('LIST across namespaces includes default/kubernetes first', async () => {
      await t.client.post('/api/v1/namespaces/aaa/services', svc('first'));
      const res = await t.client.get('/api/v1/services');
      const keys = res.json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`);
      expect(keys[0]).toBe('aaa/first');
      expect(keys).toContain('default/kubernetes');
      expect(keys).toEqual([...keys].sort());
    });

    it('the default/kubernetes Service exists as in a real cluster', async () => {
      const res = await t.client.get(`${NS}/kubernetes`);
      expect(res.status).toBe(200);
      expect(res.json.spec.clusterIP).toBe('10.96.0.1');
      expect(res.json.spec.ports).toEqual([{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }]);
      expect(res.json.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    });

    it('label selectors: =, !=, in, notin, exists, !', async () => {
      const ns = '/api/v1/namespaces/labels/services';
      const mk = (name: string, labels: Record<string, string>) => t.client.post(ns, svc(name, {}, { labels }));
      await mk('a', { tier: 'web', env: 'prod' });
      await mk('b', { tier: 'db', env: 'prod' });
      await mk('c', { tier: 'web' });
      const names = async (selector: string) => (await t.client.get(`${ns}?labelSelector=${encodeURIComponent(selector)}`)).json.items.map((i: any) => i.metadata.name);
      expect(await names('tier=web')).toEqual(['a', 'c']);
      expect(await names('tier!=web')).toEqual(['b']);
      expect(await names('tier in (db,cache)')).toEqual(['b']);
      expect(await names('tier notin (db)')).toEqual(['a', 'c']);
      expect(await names('env')).toEqual(['a', 'b']);
      expect(await names('!env')).toEqual(['c']);
      expect(await names('tier=web,env=prod')).toEqual(['a']);
      const bad = await t.client.get(`${ns}?labelSelector=${encodeURIComponent('tier in web')}`);
      expect(bad.status).toBe(400);
    });

    it('limit/continue pages over one snapshot', async () => {
      const ns = '/api/v1/namespaces/pages/services';
      for (const n of ['p1', 'p2', 'p3', 'p4', 'p5']) await t.client.post(ns, svc(n));
      const first = await t.client.get(`${ns}?limit=2`);
      expect(first.json.items.map((i: any) => i.metadata.name)).toEqual(['p1', 'p2']);
      const token = first.json.metadata.continue;
      expect(token).toBeTruthy();
      // Changes after the first page must not show up in later pages.
      await t.client.delete(`${ns}/p3`);
      await t.client.post(ns, svc('p0'));
      const second = await t.client.get(`${ns}?limit=2&continue=${encodeURIComponent(token)}`);
      expect(second.json.items.map((i: any) => i.metadata.name)).toEqual(['p3', 'p4']);
      expect(second.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
      const third = await t.client.get(`${ns}?limit=2&continue=${encodeURIComponent(second.json.metadata.continue)}`);
      expect(third.json.items.map((i: any) => i.metadata.name)).toEqual(['p5']);
      expect(third.json.metadata.continue).toBeUndefined();
      const broken = await t.client.get(`${ns}?continue=garbage!`);
      expect(broken.status).toBe(400);
      expect(broken.json.message).toMatch(/^invalid continue token: continue key is not valid/);
    });

    it('38: an unacceptable Accept header', async () => {
      const res = await t.client.get(`${NS}/kubernetes`, { accept: 'application/xml' });
      expect(res.status).toBe(406);
      expect(res.json.reason).toBe('NotAcceptable');
      expect(res.json.message.startsWith('406: Not Acceptable')).toBe(true);
    });

    it('YAML output on request', async () => {
      const res = await t.client.get(`${NS}/kubernetes`, { accept: 'application/yaml' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/yaml/);
      expect(res.text).toMatch(/^kind: Service\napiVersion: v1\n/);
    });
  });

  describe('update', () => {
    it('39/40/47: stale resourceVersion conflicts, unconditional update works, identical PUT keeps the resourceVersion', async () => {
      const created = await create(svc('upd'));
      const stale = await t.client.put(`${NS}/upd`, { ...created, metadata: { ...created.metadata, resourceVersion: '1' } });
      expect(stale.status).toBe(409);
      expect(stale.text).toBe(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on services \\"upd\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"upd","kind":"services"},"code":409}',
      );
      const { resourceVersion, ...meta } = created.metadata;
      void resourceVersion;
      const changed = await t.client.put(`${NS}/upd`, { ...created, metadata: { ...meta, labels: { a: 'b' } } });
      expect(changed.status).toBe(200);
      expect(Number(changed.json.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
      const same = await t.client.put(`${NS}/upd`, changed.json);
      expect(same.status).toBe(200);
      expect(same.json.metadata.resourceVersion).toBe(changed.json.metadata.resourceVersion);
      expect(same.text).toBe(changed.text);
    });

    it('stale resourceVersion wins over validation errors', async () => {
      const created = await create(svc('upd-order'));
      const res = await t.client.put(`${NS}/upd-order`, { ...created, metadata: { ...created.metadata, resourceVersion: '1' }, spec: { ...created.spec, type: 'Foo' } });
      expect(res.status).toBe(409);
    });

    it('44: status in a main-resource PUT is ignored', async () => {
      const created = await create(lb('upd44'));
      const res = await t.client.put(`${NS}/upd44`, { ...created, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
      expect(res.status).toBe(200);
      expect(res.json.status).toEqual({ loadBalancer: {} });
    });

    it('45: a body name that differs from the URL', async () => {
      const res = await t.client.put(`${NS}/web45`, svc('other'));
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('the name of the object (other) does not match the name on the URL (web45)');
    });

    it('46: a uid precondition that does not match', async () => {
      const created = await create(svc('upd46'));
      const res = await t.client.put(`${NS}/upd46`, { ...created, metadata: { ...created.metadata, uid: '11111111-1111-1111-1111-111111111111' } });
      expect(res.status).toBe(409);
      expect(res.json.message).toBe(
        `Operation cannot be fulfilled on services "upd46": StorageError: invalid object, Code: 4, Key: /registry/services/specs/default/upd46, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 11111111-1111-1111-1111-111111111111, UID in object meta: ${created.metadata.uid}`,
      );
    });

    it('48: PUT to a missing name creates it', async () => {
      const res = await t.client.put(`${NS}/upd48`, svc('upd48'));
      expect(res.status).toBe(201);
      expect(res.json.spec.clusterIP).toBeTruthy();
    });

    it('50: an invalid label on PUT repeats the cause four times', async () => {
      const created = await create(svc('upd50'));
      const res = await t.client.put(`${NS}/upd50`, { ...created, metadata: { ...created.metadata, labels: { a: '-bad-' } } });
      expect(res.status).toBe(422);
      expect(res.json.details.causes).toHaveLength(4);
      expect(new Set(res.json.details.causes.map((c: any) => JSON.stringify(c))).size).toBe(1);
      expect(res.json.message.startsWith('Service "upd50" is invalid: metadata.labels: Invalid value: "-bad-": ')).toBe(true);
    });

    it('51: loadBalancerClass may not change', async () => {
      const created = await create(lb('upd51', { loadBalancerClass: 'example.com/a' }));
      invalid(
        await t.client.put(`${NS}/upd51`, { ...created, spec: { ...created.spec, loadBalancerClass: 'b' } }),
        'Service "upd51" is invalid: spec.loadBalancerClass: Invalid value: "b": may not change once set',
      );
    });

    it('re-PUT of the original manifest keeps allocated values', async () => {
      await create(svc('upd-keep', { type: 'NodePort' }));
      const before = (await t.client.get(`${NS}/upd-keep`)).json;
      const res = await t.client.put(`${NS}/upd-keep`, svc('upd-keep', { type: 'NodePort' }));
      expect(res.status).toBe(200);
      expect(res.json.spec.clusterIP).toBe(before.spec.clusterIP);
      expect(res.json.spec.ports[0].nodePort).toBe(before.spec.ports[0].nodePort);
      expect(res.json.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    });
  });

  describe('status subresource', () => {
    it('53: PUT /status with the full object sets ingress (ipMode VIP) and ignores spec', async () => {
      const created = await create(lb('st53'));
      const res = await t.client.put(`${NS}/st53/status`, {
        ...created,
        spec: { ...created.spec, selector: { app: 'changed' } },
        status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } },
      });
      expect(res.status).toBe(200);
      expect(res.json.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.7', ipMode: 'VIP' }]);
      expect(res.json.spec.selector).toEqual({ app: 'st53' });
      const get = await t.client.get(`${NS}/st53/status`);
      expect(get.text).toBe(res.text);
    });

    it('55: PUT /status without spec on an LB Service needs ipMode', async () => {
      await create(lb('st55'));
      invalid(
        await t.client.put(`${NS}/st55/status`, { metadata: { name: 'st55' }, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } }),
        'Service "st55" is invalid: status.loadBalancer.ingress[0].ipMode: Required value: must be specified when `ip` is set',
      );
    });

    it('56: ingress on a ClusterIP Service', async () => {
      const created = await create(svc('st56'));
      invalid(
        await t.client.put(`${NS}/st56/status`, { ...created, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } }),
        'Service "st56" is invalid: status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is \'LoadBalancer\'',
      );
    });

    it('57: ingress entry validation', async () => {
      const created = await create(lb('st57'));
      const put = (ingress: object) => t.client.put(`${NS}/st57/status`, { ...created, status: { loadBalancer: { ingress: [ingress] } } });
      invalid(await put({ ip: 'abc' }), 'Service "st57" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
      invalid(await put({ hostname: '1.2.3.4' }), 'Service "st57" is invalid: status.loadBalancer.ingress[0].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address');
      invalid(await put({ hostname: 'lb.example.com', ipMode: 'VIP' }), 'Service "st57" is invalid: status.loadBalancer.ingress[0].ipMode: Forbidden: may not be specified when `ip` is not set');
      invalid(await put({ ip: '1.2.3.4', ipMode: 'Foo' }), 'Service "st57" is invalid: status.loadBalancer.ingress[0].ipMode: Unsupported value: "Foo": supported values: "Proxy", "VIP"');
    });

    it('59: stale resourceVersion on /status, and /status of a missing Service', async () => {
      const created = await create(lb('st59'));
      const stale = await t.client.put(`${NS}/st59/status`, { ...created, metadata: { ...created.metadata, resourceVersion: '1' } });
      expect(stale.status).toBe(409);
      expect(stale.json.reason).toBe('Conflict');
      const missing = await t.client.put(`${NS}/nope59/status`, lb('nope59'));
      expect(missing.status).toBe(404);
    });

    it('re-sending the same status keeps the resourceVersion', async () => {
      const created = await create(lb('st-noop'));
      const body = {
        ...created,
        status: {
          loadBalancer: { ingress: [{ ip: '203.0.113.9', ipMode: 'VIP' }] },
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Up', message: '' }],
        },
      };
      const first = await t.client.put(`${NS}/st-noop/status`, body);
      const again = await t.client.put(`${NS}/st-noop/status`, first.json);
      expect(again.status).toBe(200);
      expect(again.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    });
  });

  describe('delete', () => {
    it('69: DELETE returns the object; GET then 404', async () => {
      const created = await create(svc('del69'));
      const res = await t.client.delete(`${NS}/del69`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } });
      expect(res.status).toBe(200);
      expect(res.json.kind).toBe('Service');
      expect(res.json.metadata.uid).toBe(created.metadata.uid);
      expect(res.json.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      expect((await t.client.get(`${NS}/del69`)).status).toBe(404);
    });

    it('released cluster IPs and node ports can be taken again', async () => {
      const created = await create(svc('del-alloc', { type: 'NodePort' }));
      await t.client.delete(`${NS}/del-alloc`);
      const again = await create(svc('del-alloc2', { type: 'NodePort', clusterIP: created.spec.clusterIP, ports: [{ port: 80, nodePort: created.spec.ports[0].nodePort }] }));
      expect(again.spec.clusterIP).toBe(created.spec.clusterIP);
    });

    it('70: DELETE of a missing Service', async () => {
      const res = await t.client.delete(`${NS}/del70`);
      expect(res.status).toBe(404);
      expect(res.json.message).toBe('services "del70" not found');
    });

    it('72: finalizers keep the object until the last one is removed through /status', async () => {
      await create(lb('del72', {}, { finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }));
      const res = await t.client.delete(`${NS}/del72`);
      expect(res.status).toBe(200);
      expect(res.json.metadata.deletionTimestamp).toBeTruthy();
      expect(res.json.metadata.deletionGracePeriodSeconds).toBe(0);
      const pending = await t.client.get(`${NS}/del72`);
      expect(pending.status).toBe(200);
      const again = await t.client.delete(`${NS}/del72`);
      expect(again.json.metadata.resourceVersion).toBe(res.json.metadata.resourceVersion);
      const adding = await t.client.put(`${NS}/del72`, { ...pending.json, metadata: { ...pending.json.metadata, finalizers: ['service.kubernetes.io/load-balancer-cleanup', 'example.com/x'] } });
      invalid(adding, 'Service "del72" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/x"}');
      const cleared = await t.client.put(`${NS}/del72/status`, { ...pending.json, metadata: { ...pending.json.metadata, finalizers: null } });
      expect(cleared.status).toBe(200);
      expect((await t.client.get(`${NS}/del72`)).status).toBe(404);
    });

    it('73: an unsupported propagationPolicy', async () => {
      await create(svc('del73'));
      const res = await t.client.delete(`${NS}/del73?propagationPolicy=Foo`);
      expect(res.status).toBe(422);
      expect(res.json.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Foo": supported values: "Foreground", "Background", "Orphan", "nil"');
      expect(res.json.details.group).toBe('meta.k8s.io');
      expect(res.json.details.kind).toBe('DeleteOptions');
    });

    it('74: dryRun DELETE keeps the object', async () => {
      await create(svc('del74'));
      const res = await t.client.delete(`${NS}/del74?dryRun=All`);
      expect(res.status).toBe(200);
      expect((await t.client.get(`${NS}/del74`)).status).toBe(200);
    });

    it('deletecollection deletes what the selector matches and answers the deleted list', async () => {
      const ns = '/api/v1/namespaces/dc/services';
      for (const [name, tier] of [
        ['a', 'web'],
        ['b', 'web'],
        ['c', 'db'],
      ])
        await t.client.post(ns, svc(name, {}, { labels: { tier } }));
      const res = await t.client.delete(`${ns}?labelSelector=tier%3Dweb`);
      expect(res.status).toBe(200);
      expect(res.json.kind).toBe('ServiceList');
      expect(res.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
      expect((await t.client.get(ns)).json.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    });

    it('delete preconditions', async () => {
      const created = await create(svc('del-pre'));
      const res = await t.client.delete(`${NS}/del-pre`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'aaa' } } });
      expect(res.status).toBe(409);
      expect(res.json.message).toBe(
        `Operation cannot be fulfilled on Service "del-pre": the UID in the precondition (aaa) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
      );
      expect(res.json.details).toEqual({ name: 'del-pre', kind: 'Service' });
    });
  });

  describe('dry run changes nothing', () => {
    it('create, update, status and delete with dryRun=All', async () => {
      const before = (await t.client.get(NS)).json.metadata.resourceVersion;
      const created = await t.client.post(`${NS}?dryRun=All`, lb('dry'));
      expect(created.status).toBe(201);
      expect(created.json.metadata.resourceVersion).toBeUndefined();
      expect((await t.client.get(`${NS}/dry`)).status).toBe(404);
      const real = await create(lb('dry'));
      const put = await t.client.put(`${NS}/dry?dryRun=All`, { ...real, metadata: { ...real.metadata, labels: { x: 'y' } } });
      expect(put.json.metadata.labels).toEqual({ x: 'y' });
      const status = await t.client.put(`${NS}/dry/status?dryRun=All`, { ...real, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
      expect(status.json.status.loadBalancer.ingress).toHaveLength(1);
      const now = (await t.client.get(`${NS}/dry`)).json;
      expect(now).toEqual(real);
      const after = (await t.client.get(NS)).json.metadata.resourceVersion;
      expect(Number(after)).toBe(Number(before) + 1);
      const bad = await t.client.post(`${NS}?dryRun=foo`, lb('dry2'));
      expect(bad.status).toBe(422);
      expect(bad.json.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"foo"}: supported values: "All"');
    });
  });

  describe('transport', () => {
    it('75: POST on a named resource', async () => {
      const res = await t.client.post(`${NS}/web`, svc('web'));
      expect(res.status).toBe(405);
      expect(res.text).toBe(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}',
      );
    });

    it('76: a body over 3 MiB', async () => {
      const res = await t.client.post(NS, 'x'.repeat(3 * 1024 * 1024 + 10));
      expect(res.status).toBe(413);
      expect(res.json.message).toBe('Request entity too large: limit is 3145728');
    });

    it('an unsupported content type', async () => {
      const res = await t.client.post(NS, 'a=b', { contentType: 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(415);
      expect(res.json.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
      const patchType = await t.client.put(`${NS}/web`, '{}', { contentType: 'application/merge-patch+json' });
      expect(patchType.status).toBe(415);
      expect(patchType.json.message).toBe(res.json.message);
    });

    it('malformed JSON is a 400 Status', async () => {
      const res = await t.client.post(NS, '{"metadata":');
      expect(res.status).toBe(400);
      expect(res.json.kind).toBe('Status');
      expect(res.json.reason).toBe('BadRequest');
    });

    it('a wrong field type is a 400 with the Go decoder message', async () => {
      const res = await t.client.post(NS, { metadata: { name: 'types' }, spec: { ports: [{ port: '80' }] } });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('Service in version "v1" cannot be handled as a Service: json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32');
    });

    it('unknown paths are 404 Status', async () => {
      const res = await t.client.get('/api/v1/namespaces/default/pods');
      expect(res.status).toBe(404);
      expect(res.json.kind).toBe('Status');
    });
  });
});
