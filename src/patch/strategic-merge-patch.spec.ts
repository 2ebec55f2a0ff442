// Strategic merge patch as kube-apiserver v1.32 applies it to a Service (strategicpatch.StrategicMergeMapPatch
// + interpretStrategicMergePatchError). Expected orders were worked out by hand from the upstream algorithm.
import { BadRequestError, RawServerError } from '../domain/errors/domain-errors';
import { PatchRejectedError } from './patch-rejected-error';
import { applyStrategicMergePatch, GO_PANIC_MESSAGE, strategicMergeMapPatch } from './strategic-merge-patch';
import { goSprintV } from './go-format';
import service from '../../test/fixtures/patch/web-service.json';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
type Svc = any;
const base = (): Svc => plain(service);
const withPorts = (...ports: object[]): Svc => {
  const s = base();
  s.spec.ports = ports;
  return s;
};
const withFinalizers = (finalizers?: string[]): Svc => {
  const s = base();
  if (finalizers) s.metadata.finalizers = finalizers;
  else delete s.metadata.finalizers;
  return s;
};
const smp = (original: Svc, patch: unknown): Svc => plain(applyStrategicMergePatch(original, patch));
const portNumbers = (s: Svc) => s.spec.ports.map((p: any) => p.port);
const LB_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

describe('strategic merge patch: what clients send', () => {
  it.each<[string, Svc, unknown, (s: Svc) => unknown, unknown]>([
    // kubectl patch (default SMP)
    ['selector keys merge (case 63)', base(), { spec: { selector: { tier: 'web' } } }, (s) => s.spec.selector, { app: 'web', tier: 'web' }],
    ['null deletes a selector key', base(), { spec: { selector: { app: null } } }, (s) => s.spec.selector, {}],
    ['null deletes a field', base(), { spec: { externalTrafficPolicy: null } }, (s) => 'externalTrafficPolicy' in s.spec, false],
    ['null for an absent key is dropped', base(), { spec: { loadBalancerClass: null } }, (s) => 'loadBalancerClass' in s.spec, false],
    ['scalars replace', base(), { spec: { type: 'ClusterIP' } }, (s) => s.spec.type, 'ClusterIP'],
    ['a new port (merge key `port`) goes first', base(), { spec: { ports: [{ name: 'alt', port: 8080 }] } }, portNumbers, [8080, 80, 443]],
    [
      'same port, other protocol rewrites the TCP entry (port is the only SMP merge key)',
      base(),
      { spec: { ports: [{ port: 80, protocol: 'UDP' }] } },
      (s) => s.spec.ports,
      [
        { name: 'http', protocol: 'UDP', port: 80, targetPort: 8080 },
        { name: 'https', protocol: 'TCP', port: 443, targetPort: 8443 },
      ],
    ],
    [
      'with 80/TCP and 80/UDP live, the patch merges into the first',
      withPorts({ name: 'a', protocol: 'TCP', port: 80 }, { name: 'b', protocol: 'UDP', port: 80 }),
      { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
      (s) => s.spec.ports,
      [
        { name: 'a', protocol: 'TCP', port: 80, targetPort: 9090 },
        { name: 'b', protocol: 'UDP', port: 80 },
      ],
    ],
    ['{$patch: delete} removes the port (case 62)', base(), { spec: { ports: [{ $patch: 'delete', port: 443 }] } }, portNumbers, [80]],
    [
      '{$patch: delete} removes every element with that key',
      withPorts({ name: 'a', protocol: 'TCP', port: 80 }, { name: 'b', protocol: 'UDP', port: 80 }, { name: 'c', port: 81 }),
      { spec: { ports: [{ $patch: 'delete', port: 80 }] } },
      portNumbers,
      [81],
    ],
    [
      '{$patch: replace} in a list keeps only the other elements',
      base(),
      { spec: { ports: [{ $patch: 'replace' }, { port: 53, protocol: 'UDP' }] } },
      (s) => s.spec.ports,
      [{ port: 53, protocol: 'UDP' }],
    ],
    ['$patch: replace on a map', base(), { spec: { selector: { $patch: 'replace', tier: 'db' } } }, (s) => s.spec.selector, { tier: 'db' }],
    ['$patch: delete on a map empties it', base(), { metadata: { labels: { $patch: 'delete' } } }, (s) => s.metadata.labels, {}],
    ['lists without a strategy are replaced (externalIPs)', base(), { spec: { externalIPs: ['192.0.2.1'] } }, (s) => s.spec.externalIPs, ['192.0.2.1']],
    ['clusterIPs replace', base(), { spec: { clusterIPs: ['10.96.0.11'] } }, (s) => s.spec.clusterIPs, ['10.96.0.11']],
    ['ipFamilies replace', base(), { spec: { ipFamilies: ['IPv6'] } }, (s) => s.spec.ipFamilies, ['IPv6']],
    ['loadBalancerSourceRanges replace', base(), { spec: { loadBalancerSourceRanges: ['10.0.0.0/8'] } }, (s) => s.spec.loadBalancerSourceRanges, ['10.0.0.0/8']],
    // cloud-provider service controller (§6.3), sent to /status
    [
      'LB publishes ingress (replaced list)',
      base(),
      { status: { loadBalancer: { ingress: [{ ip: '198.51.100.9', ipMode: 'VIP' }] } } },
      (s) => s.status.loadBalancer.ingress,
      [{ ip: '198.51.100.9', ipMode: 'VIP' }],
    ],
    ['LB clears ingress', base(), { status: { loadBalancer: { ingress: null } } }, (s) => s.status.loadBalancer, {}],
    [
      'ingress[].ports replace',
      base(),
      { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4', ports: [{ port: 80, protocol: 'TCP' }] }] } } },
      (s) => s.status.loadBalancer.ingress,
      [{ ip: '1.2.3.4', ports: [{ port: 80, protocol: 'TCP' }] }],
    ],
    ['LB adds its finalizer alone: it goes first', base(), { metadata: { finalizers: [LB_FINALIZER] } }, (s) => s.metadata.finalizers, [LB_FINALIZER, 'example.com/a', 'example.com/b']],
    ['LB adds its finalizer to none', withFinalizers(), { metadata: { finalizers: [LB_FINALIZER] } }, (s) => s.metadata.finalizers, [LB_FINALIZER]],
    [
      'LB adds its finalizer with $setElementOrder',
      base(),
      { metadata: { '$setElementOrder/finalizers': ['example.com/a', 'example.com/b', LB_FINALIZER], finalizers: [LB_FINALIZER] } },
      (s) => s.metadata.finalizers,
      ['example.com/a', 'example.com/b', LB_FINALIZER],
    ],
    [
      'finalizers union de-duplicates; a live one keeps its place before a patched live one',
      base(),
      { metadata: { finalizers: ['example.com/b', 'example.com/c'] } },
      (s) => s.metadata.finalizers,
      ['example.com/a', 'example.com/b', 'example.com/c'],
    ],
    [
      'LB removes its finalizer with $deleteFromPrimitiveList + $setElementOrder',
      withFinalizers(['example.com/a', 'example.com/b', LB_FINALIZER]),
      { metadata: { '$deleteFromPrimitiveList/finalizers': [LB_FINALIZER], '$setElementOrder/finalizers': ['example.com/a', 'example.com/b'] } },
      (s) => s.metadata.finalizers,
      ['example.com/a', 'example.com/b'],
    ],
    ['LB removes the last finalizer with null (case 72)', withFinalizers([LB_FINALIZER]), { metadata: { finalizers: null } }, (s) => 'finalizers' in s.metadata, false],
    [
      '$deleteFromPrimitiveList on an absent list sets it (upstream quirk)',
      withFinalizers(),
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['x.io/y'] } },
      (s) => s.metadata.finalizers,
      ['x.io/y'],
    ],
    [
      'conditions merge by type; patched items keep the patch order',
      base(),
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'False' },
            { type: 'Degraded', status: 'True' },
          ],
        },
      },
      (s) => s.status.conditions.map((c: any) => `${c.type}=${c.status}`),
      ['Ready=False', 'Degraded=True'],
    ],
    [
      'ownerReferences merge by uid',
      base(),
      { metadata: { ownerReferences: [{ uid: 'u1', kind: 'Deployment', name: 'a', apiVersion: 'apps/v1' }] } },
      (s) => s.metadata.ownerReferences,
      [{ uid: 'u1', kind: 'Deployment', name: 'a', apiVersion: 'apps/v1' }],
    ],
    // $retainKeys is honoured generically
    ['$retainKeys drops unlisted keys', base(), { spec: { $retainKeys: ['ports', 'selector', 'type'], type: 'ClusterIP' } }, (s) => Object.keys(s.spec).sort(), ['ports', 'selector', 'type']],
    // Unknown `$` keys are not directives: they stay as data and the decoder reports them as unknown fields.
    ['unknown $-keys are kept as data', base(), { spec: { $foo: 'bar' } }, (s) => s.spec.$foo, 'bar'],
    [
      '$patch inside a new map is kept as data',
      base(),
      { spec: { sessionAffinityConfig: { $patch: 'replace', clientIP: { timeoutSeconds: 5 } } } },
      (s) => s.spec.sessionAffinityConfig,
      { $patch: 'replace', clientIP: { timeoutSeconds: 5 } },
    ],
    ['a null patch is a no-op', base(), null, (s) => s, base()],
    ['an empty patch is a no-op', base(), {}, (s) => s, base()],
    [
      '`__proto__` and `constructor` labels are ordinary keys',
      base(),
      JSON.parse('{"metadata":{"labels":{"__proto__":"p","constructor":"c"}}}'),
      (s) => Object.keys(s.metadata.labels),
      ['app', '__proto__', 'constructor'],
    ],
  ])('%s', (_name, original, patch, pick, expected) => {
    expect(pick(smp(original, patch))).toEqual(expected);
  });
});

describe('strategic merge patch: kubectl apply / edit / diff ($setElementOrder)', () => {
  const lastApplied = '{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"}}\n';
  it('client-side apply changing port 80 to 81 (§8.6)', () => {
    const patch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } },
      spec: {
        '$setElementOrder/ports': [{ port: 81 }, { port: 443 }],
        ports: [
          { name: 'http', port: 81, targetPort: 8080 },
          { $patch: 'delete', port: 80 },
        ],
      },
    };
    const s = smp(base(), patch);
    expect(s.spec.ports).toEqual([
      { name: 'http', port: 81, targetPort: 8080 },
      { name: 'https', protocol: 'TCP', port: 443, targetPort: 8443 },
    ]);
    expect(s.metadata.annotations).toEqual({ team: 'a', 'kubectl.kubernetes.io/last-applied-configuration': lastApplied });
  });

  it('a list present only in the patch is taken as sent, a stray delete directive kept last as data', () => {
    const patch = { spec: { '$setElementOrder/ports': [{ port: 2 }, { port: 1 }], ports: [{ port: 2 }, { $patch: 'delete', port: 9 }, { port: 1 }] } };
    const noPorts = base();
    delete noPorts.spec.ports;
    expect(smp(noPorts, patch).spec.ports).toEqual([{ port: 2 }, { port: 1 }, { $patch: 'delete', port: 9 }]);
  });

  it.each<[string, Svc, unknown, number[]]>([
    ['$setElementOrder alone reorders (case 62)', base(), { spec: { '$setElementOrder/ports': [{ port: 443 }, { port: 80 }] } }, [443, 80]],
    [
      'listed order wins, a live-only port stays after the one it followed',
      withPorts({ port: 80 }, { port: 443 }, { port: 9000 }),
      { spec: { '$setElementOrder/ports': [{ port: 443 }, { port: 80 }] } },
      [443, 80, 9000],
    ],
    [
      'a live-only port earlier in the live list than the listed items is interleaved first',
      withPorts({ port: 80 }, { port: 9000 }, { port: 443 }),
      { spec: { '$setElementOrder/ports': [{ port: 443 }, { port: 80 }] } },
      [9000, 443, 80],
    ],
    [
      'three-way apply: add 8080, delete 80, keep a live-only 9000',
      withPorts({ port: 80 }, { port: 443 }, { port: 9000 }),
      { spec: { '$setElementOrder/ports': [{ port: 8080 }, { port: 443 }], ports: [{ port: 8080 }, { $patch: 'delete', port: 80 }] } },
      [8080, 443, 9000],
    ],
    [
      'kubectl edit port 80 → 8081 (acceptance 26)',
      base(),
      { spec: { '$setElementOrder/ports': [{ port: 8081 }, { port: 443 }], ports: [{ port: 8081 }, { $patch: 'delete', port: 80 }] } },
      [8081, 443],
    ],
  ])('%s', (_name, original, patch, expected) => {
    expect(portNumbers(smp(original, patch))).toEqual(expected);
  });

  it('when the list is absent from the patch and the live object, nothing happens', () => {
    const s = smp(withFinalizers(), { metadata: { '$setElementOrder/finalizers': ['a.io/b'] } });
    expect('finalizers' in s.metadata).toBe(false);
  });

  it('kubectl diff: the patch may carry metadata.resourceVersion (the caller checks it)', () => {
    expect(smp(base(), { metadata: { resourceVersion: '11' } }).metadata.resourceVersion).toBe('11');
  });
});

describe('strategic merge patch: errors (interpretStrategicMergePatchError)', () => {
  const errorOf = (original: Svc, patch: unknown): Error => {
    try {
      applyStrategicMergePatch(original, patch);
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected an error');
  };

  it.each<[string, Svc, unknown, string]>([
    ['a condition without its merge key', base(), { status: { conditions: [{ status: 'True' }] } }, 'map: map[status:True] does not contain declared merge key: type'],
    ['a delete directive without the merge key', base(), { spec: { ports: [{ $patch: 'delete' }] } }, 'map: map[$patch:delete] does not contain declared merge key: port'],
    ['a port without its merge key', base(), { spec: { ports: [{ name: 'x', targetPort: 1 }] } }, 'map: map[name:x targetPort:1] does not contain declared merge key: port'],
    ['$patch: merge in a list', base(), { spec: { ports: [{ $patch: 'merge', port: 80 }] } }, 'merging lists cannot yet be specified in the patch'],
    ['unknown $patch in a list', base(), { spec: { ports: [{ $patch: 'foo', port: 80 }] } }, 'unknown patch type: foo in map: map[$patch:foo port:80]'],
    ['unknown $patch in a map', base(), { spec: { $patch: 'foo', a: { b: 1 } } }, 'unknown patch type: foo in map: map[$patch:foo a:map[b:1]]'],
    ['non-string $patch', base(), { spec: { $patch: 1 } }, 'unknown patch type: %!s(int64=1) in map: map[$patch:1]'],
    [
      '$setElementOrder contradicting the patch order',
      base(),
      {
        spec: {
          '$setElementOrder/ports': [{ port: 443 }, { port: 80 }],
          ports: [
            { port: 80, name: 'x' },
            { port: 443, name: 'y' },
          ],
        },
      },
      "The order in patch list:\n[map[name:x port:80] map[name:y port:443]]\n doesn't match $setElementOrder list:\n[map[port:443] map[port:80]]\n",
    ],
    ['$setElementOrder that is not a list', base(), { spec: { '$setElementOrder/ports': 'x' } }, 'expected a []interface {}, but received a string'],
    ['$setElementOrder with a null list', base(), { metadata: { '$setElementOrder/finalizers': ['a.io/b'], finalizers: null } }, 'expected a []interface {}, but received a %!s(<nil>)'],
    ['$setElementOrder of an unknown field', base(), { spec: { '$setElementOrder/foo': [] } }, 'unable to find api field in struct ServiceSpec for the json field "foo"'],
    ['mixed element types', base(), { metadata: { finalizers: [['a']] } }, 'list element types are not identical: [[example.com/a example.com/b] [[a]]]'],
    ['a list starting with null (upstream panics)', withFinalizers(), { metadata: { '$deleteFromPrimitiveList/finalizers': [null], finalizers: ['a'] } }, GO_PANIC_MESSAGE],
  ])('%s → raw 500', (_name, original, patch, message) => {
    const error = errorOf(original, patch);
    expect(error).toBeInstanceOf(RawServerError);
    expect(error.message).toBe(message);
    expect((error as RawServerError).reason).toBe('');
  });

  it.each<[string, unknown, string]>([
    ['$setElementOrder without a list name', { spec: { $setElementOrder: [] } }, 'invalid patch format of setElementOrder list'],
    ['$deleteFromPrimitiveList without a list name', { metadata: { $deleteFromPrimitiveList: ['x'] } }, 'invalid patch format of primitive list'],
    ['$retainKeys that is not a list', { spec: { $retainKeys: 'type' } }, 'invalid patch format of retainKeys'],
    ['patch keys outside $retainKeys', { spec: { $retainKeys: ['type'], selector: { a: 'b' } } }, 'invalid patch format of retainKeys'],
    ['a non-object patch', [], 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
  ])('%s → 400', (_name, patch, message) => {
    const error = errorOf(base(), patch);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe(message);
  });

  it('lists of lists → generic 422 (keys applied in document order)', () => {
    const error = errorOf(withFinalizers(), { metadata: { finalizers: [['a']], '$deleteFromPrimitiveList/finalizers': ['b'] } });
    expect(error).toBeInstanceOf(PatchRejectedError);
    expect(error.message).toBe('the server rejected our request due to an error in our request');
    expect((error as PatchRejectedError).details).toEqual({});
  });
});

describe('strategicMergeMapPatch', () => {
  it('leaves its inputs untouched and reports the consumed patch for `%+v`', () => {
    const original = base();
    const patch = { spec: { '$setElementOrder/ports': [{ port: 443 }, { port: 80 }], selector: { x: 'y' } }, metadata: { labels: { a: 'b' } } };
    const before = plain(patch);
    const { consumedPatch } = strategicMergeMapPatch(original, patch);
    expect(plain(patch)).toEqual(before);
    expect(original).toEqual(base());
    expect(goSprintV(consumedPatch)).toBe('map[metadata:map[labels:map[a:b]] spec:map[selector:map[x:y]]]');
  });
});
