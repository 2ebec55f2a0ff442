import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import fc from 'fast-check';
import { decodeService, decodeServiceProtobuf } from '../service-decoder';
import { encodeService } from '../service-encoder';
import { serviceSchema, serviceSpecSchema } from '../service-schema';
import { statusSchema } from '../meta-schema';
import { eventSchema } from '../event-schema';
import { decodeEnvelope, decodeWatchFrames, encodeEnvelope, encodeWatchFrame } from './kube-envelope';
import { decodeKubeObject, encodeKubeObject } from './kube-object-protobuf';
import { decodeMessage, encodeMessage } from './proto-message-codec';
import { ProtobufDecodeError } from './protobuf-decode-error';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const message = (build: (w: BinaryWriter) => void): Uint8Array => {
  const w = new BinaryWriter();
  build(w);
  return w.finish();
};
const serviceBody = (raw: Uint8Array, kind = 'Service', apiVersion = 'v1') => Buffer.from(encodeEnvelope(apiVersion, kind, raw));
const decodeError = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
};

describe('protobuf message codec', () => {
  describe('encoding writes what Go writes', () => {
    it('given a ServicePort, when encoded, then every non-pointer field is written in field order, zeros included', () => {
      const bytes = encodeMessage(serviceSchema, { spec: { ports: [{ port: 80 }] } });
      const port = message((w) => {
        w.tag(1, WireType.LengthDelimited).string('');
        w.tag(2, WireType.LengthDelimited).string('');
        w.tag(3, WireType.Varint).int32(80);
        w.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(0).tag(2, WireType.Varint).int32(0).tag(3, WireType.LengthDelimited).string('').join();
        w.tag(5, WireType.Varint).int32(0);
      });
      expect(hex(bytes)).toContain(hex(port));
    });

    it('given pointer fields, when unset they are absent and when set to zero they are written', () => {
      const unset = encodeMessage(serviceSpecSchema, {});
      const set = encodeMessage(serviceSpecSchema, { allocateLoadBalancerNodePorts: false, loadBalancerClass: '' });
      expect(hex(unset)).not.toContain('a001'); // field 20 varint
      expect(hex(set)).toContain('a00100'); // allocateLoadBalancerNodePorts=false
      expect(hex(set)).toContain('aa0100'); // loadBalancerClass=""
    });

    it('given a map, when encoded, then entries are sorted by key bytes', () => {
      const bytes = encodeMessage(serviceSpecSchema, { selector: { b: '2', a: '1', Z: '0' } });
      const text = Buffer.from(bytes).toString('latin1');
      expect(text.indexOf('Z')).toBeLessThan(text.indexOf('a'));
      expect(text.indexOf('a')).toBeLessThan(text.indexOf('b'));
    });

    it('given times, when encoded, then seconds with nanos 0, the zero time as an empty message, MicroTime with nanos', () => {
      const withTime = encodeMessage(statusSchema, {});
      // ListMeta{selfLink, resourceVersion, continue} then status, message, reason, code: all non-pointer.
      expect(hex(withTime)).toBe('0a06' + '0a00' + '1200' + '1a00' + '1200' + '1a00' + '2200' + '3000');
      const condition = encodeMessage(serviceSchema, {
        metadata: { creationTimestamp: '1970-01-01T00:01:40Z' },
      });
      // metadata{8: {1: 100, 2: 0}}
      expect(hex(condition).startsWith('0a')).toBe(true);
      expect(hex(condition)).toContain('4204' + '0864' + '1000');
      const zero = encodeMessage(serviceSchema, { metadata: { creationTimestamp: null } });
      expect(hex(zero)).toContain('4200');
      const event = encodeMessage(eventSchema, { eventTime: '1970-01-01T00:01:40.123456Z' });
      expect(hex(event)).toContain('0864' + '10' + Buffer.from(new BinaryWriter().int32(123456000).finish()).toString('hex'));
    });

    it('given an int64 beyond 2^53, when encoded and decoded, then no digit is lost', () => {
      const bytes = encodeMessage(serviceSchema, { metadata: { generation: 9007199254740993n } });
      expect(decodeMessage(serviceSchema, bytes).metadata).toEqual({ generation: 9007199254740993n, creationTimestamp: null });
      const negative = encodeMessage(serviceSchema, { metadata: { generation: -5 } });
      expect((decodeMessage(serviceSchema, negative).metadata as Record<string, unknown>).generation).toBe(-5);
    });
  });

  describe("decoding follows Go's semantics", () => {
    it('given absent non-pointer fields, when decoded, then they are zero and the JSON view omits them as Go does', () => {
      expect(decodeMessage(serviceSchema, new Uint8Array(0))).toEqual({ metadata: { creationTimestamp: null }, spec: {}, status: { loadBalancer: {} } });
    });

    it('given an explicit zero on a pointer field, when decoded, then it is present', () => {
      const spec = message((w) => w.tag(20, WireType.Varint).bool(false).tag(21, WireType.LengthDelimited).string(''));
      expect(decodeMessage(serviceSpecSchema, spec)).toEqual({ allocateLoadBalancerNodePorts: false, loadBalancerClass: '' });
    });

    it('given unknown field numbers of every wire type, when decoded, then they are skipped', () => {
      const spec = message((w) => {
        w.tag(99, WireType.Varint).int64(123456789012n);
        w.tag(100, WireType.LengthDelimited).string('future');
        w.tag(101, WireType.Bit32).fixed32(7);
        w.tag(102, WireType.Bit64).fixed64(7);
        w.tag(4, WireType.LengthDelimited).string('LoadBalancer');
      });
      expect(decodeMessage(serviceSpecSchema, spec)).toEqual({ type: 'LoadBalancer' });
    });

    it('given a singular message twice, when decoded, then the second merges into the first (gogo Unmarshal)', () => {
      const svc = message((w) => {
        w.tag(1, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string('web').join();
        w.tag(1, WireType.LengthDelimited).fork().tag(3, WireType.LengthDelimited).string('team-a').join();
        w.tag(2, WireType.LengthDelimited).fork().tag(5, WireType.LengthDelimited).string('1.1.1.1').join();
        w.tag(2, WireType.LengthDelimited).fork().tag(5, WireType.LengthDelimited).string('2.2.2.2').join();
      });
      const view = decodeMessage(serviceSchema, svc);
      expect(view.metadata).toEqual({ name: 'web', namespace: 'team-a', creationTimestamp: null });
      expect(view.spec).toEqual({ externalIPs: ['1.1.1.1', '2.2.2.2'] });
    });

    it('given a time message with nanos, when decoded as metav1.Time, then nanos are dropped; a zero time is null', () => {
      const meta = message((w) => w.tag(8, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(100).tag(2, WireType.Varint).int32(5).join());
      const svc = message((w) => w.tag(1, WireType.LengthDelimited).bytes(meta));
      expect((decodeMessage(serviceSchema, svc).metadata as Record<string, unknown>).creationTimestamp).toBe('1970-01-01T00:01:40Z');
    });

    it('given IntOrString as a string, when decoded, then the JSON view holds the string', () => {
      const port = message((w) => w.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(1).tag(3, WireType.LengthDelimited).string('http').join());
      const spec = message((w) => w.tag(1, WireType.LengthDelimited).bytes(port));
      expect(decodeMessage(serviceSpecSchema, spec)).toEqual({ ports: [{ port: 0, targetPort: 'http' }] });
    });
  });

  describe('bad input fails with gogo texts, never a crash', () => {
    const cases: [string, Uint8Array, string][] = [
      ['truncated length', Uint8Array.of(0x0a, 0x05, 0x0a), 'unexpected EOF'],
      ['truncated varint', Uint8Array.of(0x98, 0x06, 0x80), 'unexpected EOF'],
      ['a length beyond 2^32', Uint8Array.of(0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), 'unexpected EOF'],
      ['a negative length', Uint8Array.of(0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), 'proto: negative length found during unmarshaling'],
      ['an 11-byte varint', Uint8Array.of(0x98, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), 'proto: integer overflow'],
      ['a varint where a message belongs', Uint8Array.of(0x08, 0x01), 'proto: wrong wireType = 0 for field ObjectMeta'],
      ['field number 0', Uint8Array.of(0x00), 'proto: Service: illegal tag 0 (wire type 0)'],
      ['an end-group tag', Uint8Array.of(0x0c), 'proto: Service: wiretype end group for non-group'],
      ['wire type 7', Uint8Array.of(0xff, 0x01), 'proto: illegal wireType 7'],
    ];
    it.each(cases)('given %s, when decoded, then it fails with the gogo text', (_name, bytes, text) => {
      expect(() => decodeMessage(serviceSchema, bytes)).toThrow(ProtobufDecodeError);
      expect(decodeError(() => decodeMessage(serviceSchema, bytes))).toBe(text);
    });

    it('given bodies without the envelope, when decoded, then the serializer texts', () => {
      expect(decodeError(() => decodeEnvelope(new Uint8Array(0)))).toBe('empty data');
      expect(decodeError(() => decodeEnvelope(Buffer.from('{"kind":"Service"}')))).toBe('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
      expect(decodeError(() => decodeEnvelope(Uint8Array.of(0x6b, 0x38, 0x73, 0x00)))).toBe('empty body');
    });

    it('given a broken Service message, when decoded as a request body, then the 400 text of kube-apiserver', () => {
      const error = decodeError(() => decodeServiceProtobuf(serviceBody(Uint8Array.of(0x0a, 0x05)), { fieldValidation: 'Strict' }));
      expect(error).toBe('Service in version "v1" cannot be handled as a Service: unexpected EOF');
      const noPrefix = decodeError(() => decodeServiceProtobuf(Buffer.from('abc'), { fieldValidation: 'Strict' }));
      expect(noPrefix).toBe('the object provided is unrecognized (must be of type Service): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (616263)');
    });

    it('given another kind in the envelope, when decoded, then the same error as the JSON body with that kind', () => {
      const asJson = decodeError(() => decodeService('{"kind":"Pod","apiVersion":"v1"}', { fieldValidation: 'Strict' }));
      expect(decodeError(() => decodeServiceProtobuf(serviceBody(new Uint8Array(0), 'Pod'), { fieldValidation: 'Strict' }))).toBe(asJson);
      const wrongVersion = decodeError(() => decodeService('{"kind":"Service","apiVersion":"v2"}', { fieldValidation: 'Strict' }));
      expect(decodeError(() => decodeServiceProtobuf(serviceBody(new Uint8Array(0), 'Service', 'v2'), { fieldValidation: 'Strict' }))).toBe(wrongVersion);
    });

    it('given random bytes after the prefix, when decoded, then only ProtobufDecodeError-based 400s or a valid Service', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
          try {
            decodeServiceProtobuf(Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytes]), { fieldValidation: 'Strict' });
          } catch (error) {
            expect((error as Error).constructor.name).toMatch(/ObjectDecodeError|BadRequestError/);
          }
        }),
        { numRuns: 2000, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
      );
    });
  });

  describe('watch frames', () => {
    it('given events, when framed and read back, then each is a length-prefixed WatchEvent with a full envelope', () => {
      const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
      const frames = Buffer.concat([encodeWatchFrame('ADDED', encodeKubeObject('Service', { metadata: { name: 'a' } })), encodeWatchFrame('ERROR', encodeKubeObject('Status', status))]);
      expect(frames.readUInt32BE(0)).toBe(frames.length - 4 - (frames.length - 4 - frames.readUInt32BE(0)));
      const { events, rest } = decodeWatchFrames(frames.subarray(0, frames.length - 3));
      expect(events.map((e) => e.type)).toEqual(['ADDED']);
      expect(rest.length).toBeGreaterThan(0);
      const all = decodeWatchFrames(frames).events;
      expect(all.map((e) => e.type)).toEqual(['ADDED', 'ERROR']);
      expect(decodeKubeObject(all[0].object)).toMatchObject({ kind: 'Service', apiVersion: 'v1', metadata: { name: 'a' } });
      expect(decodeKubeObject(all[1].object)).toEqual(status);
    });
  });
});

describe('property: JSON and protobuf agree on random valid Services', () => {
  const name = fc.stringMatching(/^[a-z]([a-z0-9-]{0,10}[a-z0-9])?$/);
  const time = fc.integer({ min: 0, max: 4_000_000_000 }).map((s) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  const text = fc.string({ maxLength: 12, unit: 'grapheme' });
  const portArb = fc.record(
    {
      name: fc.option(name, { nil: undefined }),
      protocol: fc.constantFrom('TCP', 'UDP', 'SCTP'),
      appProtocol: fc.option(text, { nil: undefined }),
      port: fc.integer({ min: 1, max: 65535 }),
      targetPort: fc.oneof(fc.integer({ min: 0, max: 65535 }), name),
      nodePort: fc.option(fc.integer({ min: 30000, max: 32767 }), { nil: undefined }),
    },
    { requiredKeys: ['port'] },
  );
  const conditionArb = fc.record({
    type: name,
    status: fc.constantFrom('True', 'False', 'Unknown'),
    observedGeneration: fc.option(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => (n >= -(2n ** 53n) && n <= 2n ** 53n ? Number(n) : n)),
      { nil: undefined },
    ),
    lastTransitionTime: time,
    reason: text,
    message: text,
  });
  const ingressArb = fc.record(
    {
      ip: fc.ipV4(),
      hostname: fc.option(fc.domain(), { nil: undefined }),
      ipMode: fc.option(fc.constantFrom('VIP', 'Proxy'), { nil: undefined }),
      ports: fc.option(fc.array(fc.record({ port: fc.integer({ min: 0, max: 65535 }), protocol: fc.constantFrom('TCP', 'UDP'), error: fc.option(text, { nil: undefined }) }), { maxLength: 2 }), {
        nil: undefined,
      }),
    },
    { requiredKeys: [] },
  );
  const serviceArb = fc.record({
    metadata: fc.record(
      {
        name,
        namespace: name,
        uid: fc.uuid(),
        resourceVersion: fc.nat().map(String),
        generation: fc.nat(),
        creationTimestamp: time,
        deletionTimestamp: time,
        deletionGracePeriodSeconds: fc.nat(),
        labels: fc.dictionary(name, text, { maxKeys: 3 }),
        annotations: fc.dictionary(name, text, { maxKeys: 3 }),
        finalizers: fc.array(name, { maxLength: 2 }),
        ownerReferences: fc.array(fc.record({ apiVersion: fc.constant('v1'), kind: name, name, uid: fc.uuid(), controller: fc.option(fc.boolean(), { nil: undefined }) }), { maxLength: 2 }),
      },
      { requiredKeys: ['name'] },
    ),
    spec: fc.record(
      {
        ports: fc.array(portArb, { maxLength: 3 }),
        selector: fc.dictionary(name, name, { maxKeys: 3 }),
        clusterIP: fc.ipV4(),
        clusterIPs: fc.array(fc.ipV4(), { maxLength: 2 }),
        type: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'),
        externalIPs: fc.array(fc.ipV4(), { maxLength: 2 }),
        sessionAffinity: fc.constantFrom('None', 'ClientIP'),
        externalName: fc.domain(),
        healthCheckNodePort: fc.integer({ min: 0, max: 32767 }),
        publishNotReadyAddresses: fc.boolean(),
        sessionAffinityConfig: fc.record({ clientIP: fc.record({ timeoutSeconds: fc.integer({ min: 1, max: 86400 }) }, { requiredKeys: [] }) }, { requiredKeys: [] }),
        ipFamilies: fc.constantFrom(['IPv4'], ['IPv6', 'IPv4']),
        ipFamilyPolicy: fc.constantFrom('SingleStack', 'PreferDualStack', 'RequireDualStack'),
        allocateLoadBalancerNodePorts: fc.boolean(),
        loadBalancerClass: text,
        internalTrafficPolicy: fc.constantFrom('Cluster', 'Local'),
        trafficDistribution: fc.constantFrom('PreferClose'),
      },
      { requiredKeys: [] },
    ),
    status: fc.record(
      { loadBalancer: fc.record({ ingress: fc.array(ingressArb, { maxLength: 3 }) }, { requiredKeys: [] }), conditions: fc.array(conditionArb, { maxLength: 3 }) },
      { requiredKeys: [] },
    ),
  });
  const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

  it('JSON view -> protobuf -> JSON view is the identity, and protobuf bytes re-encode to themselves', () => {
    fc.assert(
      fc.property(serviceArb, (random) => {
        const canonical = JSON.parse(JSON.stringify(encodeService(random as never), (_k, v) => (typeof v === 'bigint' ? `#${v}` : v)));
        const bytes = encodeKubeObject('Service', encodeService(random as never));
        const view = decodeKubeObject(bytes);
        expect(JSON.parse(JSON.stringify(view, (_k, v) => (typeof v === 'bigint' ? `#${v}` : v)))).toEqual(canonical);
        expect(hex(encodeKubeObject('Service', view))).toBe(hex(bytes));
      }),
      { numRuns: 300, ...seed },
    );
  });

  it('a protobuf body and the equivalent JSON body decode to the same Service', () => {
    fc.assert(
      fc.property(serviceArb, (random) => {
        // int64 digits exactly as written (JSON.stringify cannot write a bigint).
        const json = JSON.stringify(encodeService(random as never), (_k, v) => (typeof v === 'bigint' ? `\u0000${v}\u0000` : v)).replace(/"\\u0000(-?\d+)\\u0000"/g, '$1');
        const fromJson = decodeService(json, { fieldValidation: 'Strict' }).object;
        const bytes = Buffer.from(encodeKubeObject('Service', encodeService(random as never)));
        expect(decodeServiceProtobuf(bytes, { fieldValidation: 'Strict' }).object).toEqual(fromJson);
      }),
      { numRuns: 300, ...seed },
    );
  });
});
