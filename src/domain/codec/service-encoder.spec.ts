import fc from 'fast-check';
import { type Service } from '../service.types';
import { applyServiceDefaults } from '../service-defaults';
import { type GoType, type StructSchema } from './go-schema';
import { formatRfc3339Utc } from './go-time';
import { decodeService, decodeServiceValue } from './service-decoder';
import { encodeService, encodeServiceForList } from './service-encoder';
import { serviceSchema } from './service-schema';

// §1.7 of object-semantics.md, compacted (uid filled in).
const CANONICAL_201 =
  '{"kind":"Service","apiVersion":"v1",' +
  '"metadata":{"name":"web","namespace":"default","uid":"6a1c2f3e-1111-4222-8333-944455556666","resourceVersion":"1234","creationTimestamp":"2025-01-02T03:04:05Z",' +
  '"managedFields":[{"manager":"curl","operation":"Update","apiVersion":"v1","time":"2025-01-02T03:04:05Z","fieldsType":"FieldsV1",' +
  '"fieldsV1":{"f:spec":{"f:internalTrafficPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}}]},' +
  '"spec":{"ports":[{"protocol":"TCP","port":80,"targetPort":80}],"selector":{"app":"web"},' +
  '"clusterIP":"10.96.123.45","clusterIPs":["10.96.123.45"],"type":"ClusterIP","sessionAffinity":"None",' +
  '"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","internalTrafficPolicy":"Cluster"},' +
  '"status":{"loadBalancer":{}}}';

const FIELDS_V1 = {
  'f:spec': {
    'f:internalTrafficPolicy': {},
    'f:ports': { '.': {}, 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
    'f:selector': {},
    'f:sessionAffinity': {},
    'f:type': {},
  },
};

describe('encodeService', () => {
  it('writes the §1.7 canonical object byte for byte, whatever the input key order', () => {
    const scrambled = {
      status: { loadBalancer: {} },
      spec: {
        internalTrafficPolicy: 'Cluster',
        ipFamilyPolicy: 'SingleStack',
        ipFamilies: ['IPv4'],
        sessionAffinity: 'None',
        type: 'ClusterIP',
        clusterIPs: ['10.96.123.45'],
        clusterIP: '10.96.123.45',
        selector: { app: 'web' },
        ports: [{ targetPort: 80, port: 80, protocol: 'TCP' }],
      },
      metadata: {
        managedFields: [{ fieldsV1: FIELDS_V1, fieldsType: 'FieldsV1', time: '2025-01-02T03:04:05Z', apiVersion: 'v1', operation: 'Update', manager: 'curl' }],
        creationTimestamp: '2025-01-02T03:04:05Z',
        resourceVersion: '1234',
        uid: '6a1c2f3e-1111-4222-8333-944455556666',
        namespace: 'default',
        name: 'web',
      },
      apiVersion: 'v1',
      kind: 'Service',
    } as Service;
    expect(JSON.stringify(encodeService(scrambled))).toBe(CANONICAL_201);
  });

  it('reproduces §1.7 from the POST body via decode, defaulting and server-filled fields', () => {
    const { object } = decodeService('{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}', { fieldValidation: 'Strict' });
    const defaulted = applyServiceDefaults(object);
    const stored: Service = {
      ...defaulted,
      metadata: {
        ...defaulted.metadata,
        namespace: 'default',
        uid: '6a1c2f3e-1111-4222-8333-944455556666',
        resourceVersion: '1234',
        creationTimestamp: '2025-01-02T03:04:05.000Z',
        managedFields: [{ manager: 'curl', operation: 'Update', apiVersion: 'v1', time: '2025-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: FIELDS_V1 }],
      },
      spec: { ...defaulted.spec, clusterIP: '10.96.123.45', clusterIPs: ['10.96.123.45'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
    };
    expect(JSON.stringify(encodeService(stored))).toBe(CANONICAL_201);
  });

  it('applies Go omitempty: zero plain fields go, pointer fields stay, value structs always render', () => {
    const out = encodeService({
      metadata: { name: 'web', generation: 0, labels: {}, finalizers: [], annotations: { b: '2', a: '1', B: '3' } },
      spec: {
        ports: [{ port: 0, name: '', appProtocol: '', nodePort: 0 }],
        clusterIP: '',
        externalIPs: [],
        publishNotReadyAddresses: false,
        healthCheckNodePort: 0,
        loadBalancerClass: '',
        allocateLoadBalancerNodePorts: false,
        sessionAffinityConfig: {},
        selector: {},
      },
      status: {
        loadBalancer: { ingress: [{ ip: '1.2.3.4', ports: [{ port: 80, protocol: 'TCP', error: '' }] }] },
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: null, reason: '', message: '' }],
      },
    });
    expect(JSON.stringify(out)).toBe(
      '{"kind":"Service","apiVersion":"v1",' +
        '"metadata":{"name":"web","creationTimestamp":null,"annotations":{"B":"3","a":"1","b":"2"}},' +
        '"spec":{"ports":[{"appProtocol":"","port":0,"targetPort":0}],"sessionAffinityConfig":{},"allocateLoadBalancerNodePorts":false,"loadBalancerClass":""},' +
        '"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4","ports":[{"port":80,"protocol":"TCP","error":""}]}]},' +
        '"conditions":[{"type":"Ready","status":"True","lastTransitionTime":null,"reason":"","message":""}]}}',
    );
  });

  it('fills missing value structs and non-omitempty fields, and drops unknown properties', () => {
    const out = encodeService({
      kind: 'Pod',
      metadata: { name: 'x', extra: 1 },
      spec: { foo: 'bar', ports: [{ name: 'a' }] },
      status: { conditions: [{ type: 'A' }] },
    } as unknown as Service);
    expect(JSON.stringify(out)).toBe(
      '{"kind":"Service","apiVersion":"v1","metadata":{"name":"x","creationTimestamp":null},' +
        '"spec":{"ports":[{"name":"a","port":0,"targetPort":0}]},' +
        '"status":{"loadBalancer":{},"conditions":[{"type":"A","status":"","lastTransitionTime":null,"reason":"","message":""}]}}',
    );
    expect(JSON.stringify(encodeService({} as Service))).toBe('{"kind":"Service","apiVersion":"v1","metadata":{"creationTimestamp":null},"spec":{},"status":{"loadBalancer":{}}}');
  });

  it('normalises timestamps and drops a pointer to the zero time', () => {
    const out = encodeService({
      metadata: {
        creationTimestamp: '2025-01-02T05:04:05.123+02:00',
        deletionTimestamp: '0001-01-01T00:00:00Z',
        managedFields: [{ time: '2025-01-02T03:04:05.5Z' }],
      },
      spec: {},
      status: { loadBalancer: {}, conditions: [{ type: 'A', status: 'True', lastTransitionTime: '0001-01-01T00:00:00Z', reason: '', message: '' }] },
    });
    expect(out.metadata).toEqual({ creationTimestamp: '2025-01-02T03:04:05Z', managedFields: [{ time: '2025-01-02T03:04:05Z' }] });
    expect(out.status.conditions?.[0].lastTransitionTime).toBeNull();
  });

  it('does not mutate its input and returns fresh objects', () => {
    const input: Service = { metadata: { labels: { a: '1' } }, spec: { ports: [{ port: 80 }] }, status: { loadBalancer: {} } };
    const before = JSON.stringify(input);
    const out = encodeService(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(out.spec.ports).not.toBe(input.spec.ports);
    expect(out.metadata.labels).not.toBe(input.metadata.labels);
  });

  it('omits kind and apiVersion for list items', () => {
    const item = encodeServiceForList({ metadata: { name: 'web' }, spec: {}, status: { loadBalancer: {} } });
    expect(JSON.stringify(item)).toBe('{"metadata":{"name":"web","creationTimestamp":null},"spec":{},"status":{"loadBalancer":{}}}');
  });
});

// ---- property: encode ∘ decode ∘ encode = encode ----------------------------------------------

const MIN_SECONDS = -62135596800; // 0001-01-01T00:00:00Z
const MAX_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

const timeArb = fc.tuple(fc.integer({ min: MIN_SECONDS + 86400, max: MAX_SECONDS - 86400 }), fc.integer({ min: -14 * 60, max: 14 * 60 }), fc.boolean()).map(([seconds, offsetMinutes, fraction]) => {
  const utc = formatRfc3339Utc(seconds + offsetMinutes * 60);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return utc.slice(0, 19) + (fraction ? '.250' : '') + offset;
});

function arbitraryFor(type: GoType, depth: number, unit: 'grapheme' | 'binary'): fc.Arbitrary<unknown> {
  const str = fc.string({ unit, maxLength: 8 });
  switch (type.kind) {
    case 'string':
      return str;
    case 'bool':
      return fc.boolean();
    case 'int':
      return type.bits === 32 ? fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) : fc.maxSafeInteger();
    case 'stringMap':
      return fc.dictionary(str, str, { maxKeys: 3 });
    case 'stringListMap':
      return fc.dictionary(str, fc.array(str, { maxLength: 2 }), { maxKeys: 3 });
    case 'slice':
      return fc.array(arbitraryFor(type.elem, depth, unit), { maxLength: 2 });
    case 'struct':
      return structArbitrary(type.struct, depth + 1, unit);
    case 'intOrString':
      return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), str);
    case 'time':
      return fc.oneof(timeArb, fc.constant('0001-01-01T00:00:00Z'));
    case 'rawJson':
      return fc.dictionary(str, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  }
}

function structArbitrary(schema: StructSchema, depth: number, unit: 'grapheme' | 'binary'): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of schema.fields) {
    model[f.json] = depth > 6 ? fc.constant(undefined) : fc.option(arbitraryFor(f.type, depth, unit), { nil: undefined, freq: 2 });
  }
  return fc.record(model, { requiredKeys: [] });
}

describe('encode/decode fixed point', () => {
  it('encodeService(decodeServiceValue(encodeService(x))) == encodeService(x)', () => {
    fc.assert(
      fc.property(structArbitrary(serviceSchema, 0, 'binary'), (x) => {
        const once = encodeService(x as unknown as Service);
        const decoded = decodeServiceValue(once, { fieldValidation: 'Strict' });
        expect(decoded.warnings).toEqual([]);
        expect(JSON.stringify(encodeService(decoded.object))).toBe(JSON.stringify(once));
      }),
      { numRuns: 300 },
    );
  });

  it('holds through the text decoder too', () => {
    fc.assert(
      fc.property(structArbitrary(serviceSchema, 0, 'grapheme'), (x) => {
        const bytes = JSON.stringify(encodeService(x as unknown as Service));
        const again = JSON.stringify(encodeService(decodeService(bytes, { fieldValidation: 'Strict' }).object));
        expect(again).toBe(bytes);
      }),
      { numRuns: 300 },
    );
  });
});
