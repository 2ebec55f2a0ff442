import { BadRequestError } from '../errors/domain-errors';
import { decodeService, decodeServiceValue, type FieldValidation, summarizeBody } from './service-decoder';
import { ObjectDecodeError } from './object-decode-error';

const PREFIX = 'Service in version "v1" cannot be handled as a Service: ';
const LAYOUT = '"2006-01-02T15:04:05Z07:00"';

function decodeError(body: string, fieldValidation: FieldValidation = 'Strict'): string {
  try {
    decodeService(body, { fieldValidation });
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    return (e as Error).message;
  }
  throw new Error(`expected ${body} to fail`);
}

const svc = (spec: string, extra = ''): string => `{"kind":"Service","apiVersion":"v1","metadata":{"name":"web"${extra}},"spec":${spec}}`;

describe('decodeService', () => {
  it('decodes a body into a canonical object (no defaulting)', () => {
    const { object, warnings } = decodeService('{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}', { fieldValidation: 'Strict' });
    expect(warnings).toEqual([]);
    expect(object).toEqual({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'web' },
      spec: { ports: [{ port: 80 }], selector: { app: 'web' } },
      status: { loadBalancer: {} },
    });
  });

  it('gives nested structs their canonical form whether decoded, repeated, nulled or absent: the result decodes to itself', () => {
    const bodies = [
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"}}',
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"},"status":null,"spec":{"ports":[{"port":80},null,{}]}}',
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","labels":{"x":"1"}},"metadata":{"name":"b"},"spec":{"ports":[{"port":80,"name":"p"}]},"spec":{"ports":[{"port":81}]}}',
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"é"},"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4","ports":[{"port":1,"protocol":"TCP"}]}]},"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}',
    ];
    for (const body of bodies) {
      const once = decodeService(body, { fieldValidation: 'Ignore' }).object;
      expect(decodeService(JSON.stringify(once), { fieldValidation: 'Ignore' }).object).toEqual(once);
      expect(once.status).toEqual(expect.objectContaining({ loadBalancer: expect.any(Object) }));
      expect(once.spec).toBeDefined();
    }
    const merged = decodeService(bodies[2], { fieldValidation: 'Ignore' }).object;
    // A repeated key decodes into what the first one left: Go keeps the labels and the first port's name.
    expect(merged.metadata).toEqual(expect.objectContaining({ name: 'b', labels: { x: '1' } }));
    expect(merged.spec.ports).toEqual([expect.objectContaining({ port: 81, name: 'p' })]);
  });

  it('accepts an empty kind and apiVersion', () => {
    const { object } = decodeService('{"metadata":{"name":"web"}}', { fieldValidation: 'Strict' });
    expect(object.kind).toBe('Service');
    expect(object.apiVersion).toBe('v1');
    expect(decodeService('{"kind":"","apiVersion":"","spec":{}}', { fieldValidation: 'Strict' }).object.spec).toEqual({});
  });

  describe("type errors (Go's UnmarshalTypeError wording)", () => {
    it.each([
      [svc('{"ports":[{"port":"80"}]}'), 'json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32'],
      [svc('{"ports":[{"port":1.5}]}'), 'json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.port of type int32'],
      [svc('{"ports":[{"port":2147483648}]}'), 'json: cannot unmarshal number 2147483648 into Go struct field ServicePort.spec.ports.port of type int32'],
      [svc('{"ports":[{"port":1e3}]}'), 'json: cannot unmarshal number 1e3 into Go struct field ServicePort.spec.ports.port of type int32'],
      [svc('{}', ',"generation":1e400'), 'json: cannot unmarshal number 1e400 into Go struct field ObjectMeta.metadata.generation of type int64'],
      [svc('{}', ',"generation":9223372036854775808'), 'json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64'],
      [svc('"x"'), 'json: cannot unmarshal string into Go struct field Service.spec of type v1.ServiceSpec'],
      ['{"metadata":[]}', 'json: cannot unmarshal array into Go struct field Service.metadata of type v1.ObjectMeta'],
      [svc('{"selector":[]}'), 'json: cannot unmarshal array into Go struct field ServiceSpec.spec.selector of type map[string]string'],
      [svc('{}', ',"labels":{"a":5}'), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
      [svc('{"type":5}'), 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.type of type v1.ServiceType'],
      [svc('{"type":{}}'), 'json: cannot unmarshal object into Go struct field ServiceSpec.spec.type of type v1.ServiceType'],
      [svc('{"allocateLoadBalancerNodePorts":"yes"}'), 'json: cannot unmarshal string into Go struct field ServiceSpec.spec.allocateLoadBalancerNodePorts of type bool'],
      [svc('{"ports":{}}'), 'json: cannot unmarshal object into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort'],
      [svc('{"ports":["x"]}'), 'json: cannot unmarshal string into Go struct field ServiceSpec.spec.ports of type v1.ServicePort'],
      [svc('{"clusterIPs":"10.0.0.1"}'), 'json: cannot unmarshal string into Go struct field ServiceSpec.spec.clusterIPs of type []string'],
      [svc('{"ipFamilies":[4]}'), 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.ipFamilies of type v1.IPFamily'],
      [
        svc('{"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":"1"}}}'),
        'json: cannot unmarshal string into Go struct field ClientIPConfig.spec.sessionAffinityConfig.clientIP.timeoutSeconds of type int32',
      ],
      [svc('{}', ',"ownerReferences":[{"controller":"x"}]'), 'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool'],
      [svc('{}', ',"uid":1'), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID'],
      ['{"status":{"conditions":[{"status":true}]}}', 'json: cannot unmarshal bool into Go struct field Condition.status.conditions.status of type v1.ConditionStatus'],
      [
        '{"status":{"loadBalancer":{"ingress":[{"ipMode":1}]}}}',
        'json: cannot unmarshal number into Go struct field LoadBalancerIngress.status.loadBalancer.ingress.ipMode of type v1.LoadBalancerIPMode',
      ],
      [
        '{"status":{"loadBalancer":{"ingress":[{"ports":[{"port":-2147483649}]}]}}}',
        'json: cannot unmarshal number -2147483649 into Go struct field PortStatus.status.loadBalancer.ingress.ports.port of type int32',
      ],
    ])('%s', (body, message) => {
      expect(decodeError(body)).toBe(PREFIX + message);
    });

    it('reports IntOrString errors as int32 ones', () => {
      expect(decodeError(svc('{"ports":[{"port":80,"targetPort":1.5}]}'))).toBe(PREFIX + 'json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32');
      expect(decodeError(svc('{"ports":[{"port":80,"targetPort":true}]}'))).toBe(PREFIX + 'json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32');
      expect(decodeError(svc('{"ports":[{"port":80,"targetPort":[80]}]}'))).toBe(PREFIX + 'json: cannot unmarshal array into Go struct field ServicePort.spec.ports.targetPort of type int32');
    });

    it('keeps the first plain type error, but a custom unmarshaler error aborts and wins', () => {
      expect(decodeError(svc('{"type":5,"clusterIP":6}'))).toBe(PREFIX + 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.type of type v1.ServiceType');
      expect(decodeError(svc('{"type":5,"ports":[{"port":1,"targetPort":{}}]}'))).toBe(PREFIX + 'json: cannot unmarshal object into Go struct field ServicePort.spec.ports.targetPort of type int32');
    });

    it('prefers type errors over strict errors', () => {
      expect(decodeError(svc('{"foo":1,"type":5}'))).toBe(PREFIX + 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.type of type v1.ServiceType');
    });

    it('throws ObjectDecodeError carrying the bare decoder message', () => {
      try {
        decodeService(svc('{"type":5}'), { fieldValidation: 'Ignore' });
        throw new Error('unreachable');
      } catch (e) {
        expect(e).toBeInstanceOf(ObjectDecodeError);
        expect((e as ObjectDecodeError).decoderMessage).toBe('json: cannot unmarshal number into Go struct field ServiceSpec.spec.type of type v1.ServiceType');
        expect((e as ObjectDecodeError).reason).toBe('BadRequest');
      }
    });
  });

  describe('metav1.Time fields', () => {
    it('normalises RFC 3339 input to UTC whole seconds', () => {
      const { object } = decodeService(
        JSON.stringify({
          metadata: {
            name: 'web',
            creationTimestamp: '2025-01-02T05:04:05.123+02:00',
            deletionTimestamp: '2025-01-02T03:04:05.000Z',
            managedFields: [{ manager: 'm', time: '2025-01-01T23:04:05-04:00' }],
          },
          status: {
            conditions: [
              { type: 'A', status: 'True', lastTransitionTime: '2025-01-02T03:04:05.999999Z', reason: 'R', message: 'M' },
              { type: 'B', status: 'False' },
            ],
          },
        }),
        { fieldValidation: 'Strict' },
      );
      expect(object.metadata.creationTimestamp).toBe('2025-01-02T03:04:05Z');
      expect(object.metadata.deletionTimestamp).toBe('2025-01-02T03:04:05Z');
      expect(object.metadata.managedFields?.[0].time).toBe('2025-01-02T03:04:05Z');
      expect(object.status.conditions).toEqual([
        { type: 'A', status: 'True', lastTransitionTime: '2025-01-02T03:04:05Z', reason: 'R', message: 'M' },
        { type: 'B', status: 'False', lastTransitionTime: null, reason: '', message: '' },
      ]);
    });

    it('treats null and the zero time as unset', () => {
      const { object } = decodeService('{"metadata":{"creationTimestamp":null,"deletionTimestamp":"0001-01-01T00:00:00Z","managedFields":[{"time":null}]}}', { fieldValidation: 'Strict' });
      expect(object.metadata).toEqual({ managedFields: [{}] });
    });

    it.each([
      ['"creationTimestamp":"nope"', `parsing time "nope" as ${LAYOUT}: cannot parse "nope" as "2006"`],
      ['"creationTimestamp":"2025-01-02"', `parsing time "2025-01-02" as ${LAYOUT}: cannot parse "" as "T"`],
      ['"deletionTimestamp":"2025-02-30T00:00:00Z"', 'parsing time "2025-02-30T00:00:00Z": day out of range'],
      ['"creationTimestamp":5', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
      ['"creationTimestamp":{}', 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
      ['"managedFields":[{"time":true}]', 'json: cannot unmarshal bool into Go struct field ManagedFieldsEntry.metadata.managedFields.time of type string'],
    ])('rejects %s', (meta, message) => {
      expect(decodeError(`{"metadata":{${meta}}}`)).toBe(PREFIX + message);
    });
  });

  describe('unknown and duplicate fields', () => {
    const body =
      '{"kind":"Service","foo":1,"metadata":{"name":"a","labels":{"x":"1","x":"2"},"name":"b"},' +
      '"spec":{"type":"NodePort","foo":{"port":"not checked"},"ports":[{"port":80,"bar":true}],"type":"ClusterIP","foo":2}}';

    it('warns with Warn and drops unknown fields (last duplicate wins)', () => {
      const { object, warnings } = decodeService(body, { fieldValidation: 'Warn' });
      expect(warnings).toEqual([
        'unknown field "foo"',
        'duplicate field "metadata.labels.x"',
        'duplicate field "metadata.name"',
        'unknown field "spec.foo"',
        'unknown field "spec.ports[0].bar"',
        'duplicate field "spec.type"',
      ]);
      expect(object.metadata).toEqual({ name: 'b', labels: { x: '2' } });
      expect(object.spec).toEqual({ ports: [{ port: 80 }], type: 'ClusterIP' });
    });

    it('fails with Strict, listing every strict error', () => {
      expect(decodeError(body, 'Strict')).toBe(
        PREFIX +
          'strict decoding error: unknown field "foo", duplicate field "metadata.labels.x", duplicate field "metadata.name", ' +
          'unknown field "spec.foo", unknown field "spec.ports[0].bar", duplicate field "spec.type"',
      );
      expect(decodeError(svc('{"foo":1}'))).toBe(PREFIX + 'strict decoding error: unknown field "spec.foo"');
    });

    it('says nothing with Ignore', () => {
      expect(decodeService(body, { fieldValidation: 'Ignore' }).warnings).toEqual([]);
    });

    it("is case-sensitive and quotes paths like Go's %q", () => {
      const { warnings } = decodeService('{"Spec":{},"spec":{"Type":"x","a\\"b\\n":1}}', { fieldValidation: 'Warn' });
      expect(warnings).toEqual(['unknown field "Spec"', 'unknown field "spec.Type"', 'unknown field "spec.a\\"b\\n"']);
    });

    it('caps strict errors at 100 and de-duplicates them', () => {
      const many = Array.from({ length: 150 }, (_, i) => `"u${i}":1`).join(',');
      expect(decodeService(`{"spec":{${many}}}`, { fieldValidation: 'Warn' }).warnings).toHaveLength(100);
      expect(decodeService('{"spec":{"u":1,"u":2}}', { fieldValidation: 'Warn' }).warnings).toEqual(['unknown field "spec.u"']);
    });

    it('does not look inside FieldsV1', () => {
      const { object, warnings } = decodeService('{"metadata":{"managedFields":[{"fieldsV1":{"f:spec":{"f:type":{},"f:type":{}},"__proto__":{"x":1}}}]}}', { fieldValidation: 'Warn' });
      expect(warnings).toEqual([]);
      const raw = object.metadata.managedFields?.[0].fieldsV1 as Record<string, unknown>;
      expect(Object.keys(raw)).toEqual(['f:spec', '__proto__']);
      expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    });
  });

  describe('Go value semantics', () => {
    it('treats null as absent: pointers, slices and maps cleared, scalars and structs untouched', () => {
      const { object } = decodeService('{"metadata":{"name":"a","name":null,"labels":null},"spec":null,' + '"status":{"loadBalancer":null,"conditions":null}}', { fieldValidation: 'Ignore' });
      expect(object).toEqual({ kind: 'Service', apiVersion: 'v1', metadata: { name: 'a' }, spec: {}, status: { loadBalancer: {} } });
      const spec = decodeService('{"spec":{"type":"NodePort","type":null,"loadBalancerClass":"x","loadBalancerClass":null}}', {
        fieldValidation: 'Ignore',
      }).object.spec;
      expect(spec).toEqual({ type: 'NodePort' });
    });

    it('keeps pointer zero values and drops plain zero values', () => {
      const { object } = decodeService(
        '{"spec":{"clusterIP":"","healthCheckNodePort":0,"publishNotReadyAddresses":false,"loadBalancerClass":"",' +
          '"allocateLoadBalancerNodePorts":false,"ports":[{"port":0,"appProtocol":"","targetPort":0,"nodePort":0}],' +
          '"sessionAffinityConfig":{},"selector":{},"externalIPs":[]}}',
        { fieldValidation: 'Strict' },
      );
      expect(object.spec).toEqual({
        ports: [{ port: 0, appProtocol: '' }],
        selector: {},
        externalIPs: [],
        sessionAffinityConfig: {},
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: '',
      });
    });

    it('decodes IntOrString as number or string', () => {
      const { object } = decodeService('{"spec":{"ports":[{"port":1,"targetPort":8080},{"port":2,"targetPort":"http"},{"port":3,"targetPort":""}]}}', {
        fieldValidation: 'Strict',
      });
      expect(object.spec.ports).toEqual([
        { port: 1, targetPort: 8080 },
        { port: 2, targetPort: 'http' },
        { port: 3, targetPort: '' },
      ]);
    });

    it('merges a repeated key into what was decoded before, as encoding/json does', () => {
      const { object } = decodeService(
        '{"metadata":{"labels":{"a":"1"},"labels":{"b":"2","c":null}},' +
          '"spec":{"ports":[{"name":"http","port":80},{"port":443}],"ports":[{"port":8080}],' +
          '"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":5}},"sessionAffinityConfig":{}}}',
        { fieldValidation: 'Ignore' },
      );
      expect(object.metadata.labels).toEqual({ a: '1', b: '2', c: '' });
      expect(object.spec.ports).toEqual([{ name: 'http', port: 8080 }]);
      expect(object.spec.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 5 } });
    });

    it('keeps __proto__ label keys as data', () => {
      const { object } = decodeService('{"metadata":{"labels":{"__proto__":"x","constructor":"y"}}}', { fieldValidation: 'Strict' });
      expect(Object.keys(object.metadata.labels!)).toEqual(['__proto__', 'constructor']);
      expect(object.metadata.labels!['__proto__']).toBe('x');
    });

    it('decodes a null body as an empty Service', () => {
      expect(decodeService('null', { fieldValidation: 'Strict' }).object).toEqual({
        kind: 'Service',
        apiVersion: 'v1',
        metadata: {},
        spec: {},
        status: { loadBalancer: {} },
      });
    });
  });

  describe('unrecognized bodies and kinds', () => {
    const unrecognized = 'the object provided is unrecognized (must be of type Service): ';
    const findKind = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

    it.each([
      ['', `couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`],
      ['{"kind":"Service",', `couldn't get version/kind; json parse error: unexpected end of JSON input ({"kind":"Service",)`],
      ['{"kind":"Service","metadata":{"name":"web"}}}', `couldn't get version/kind; json parse error: invalid character '}' after top-level value ({"kind":"Service","metadata":{ ...)`],
      ['not json', `couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)`],
      ['[]', `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${findKind} (5b5d)`],
      ['"x"', `couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${findKind} (227822)`],
      ['{"kind":5}', `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})`],
      ['{"APIVERSION":true}', `couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go struct field .apiVersion of type string ({"APIVERSION":true})`],
      ['{"apiVersion":"a/b/c"}', 'unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})'],
      [' {"kind":1}', `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string (207b226b696e64223a317d)`],
    ])('%j', (body, message) => {
      expect(decodeError(body)).toBe(unrecognized + message);
    });

    it('summarises at most 30 bytes of the body', () => {
      expect(summarizeBody(Buffer.from('{"metadata":{"name":"abcdefghijklmnop"}}'))).toBe('{"metadata":{"name":"abcdefghi ...');
      expect(summarizeBody(Buffer.from('{"metadata":{"name":"abcdefghé"}}'))).toBe('{"metadata":{"name":"abcdefgh\ufffd ...');
      expect(summarizeBody(Buffer.from('{"metadata":{"name":"abcdefg€"}}'))).toBe('{"metadata":{"name":"abcdefg\ufffd\ufffd ...');
      expect(summarizeBody(Buffer.from('x'.repeat(40)))).toBe('78'.repeat(30) + ' ...');
    });

    it.each([
      ['{"kind":"Pod","apiVersion":"v1"}', 'Pod in version "v1" cannot be handled as a Service: converting (v1.Pod) to (core.Service): unknown conversion'],
      ['{"KIND":"ServiceList"}', 'ServiceList in version "v1" cannot be handled as a Service: converting (v1.ServiceList) to (core.Service): unknown conversion'],
      ['{"kind":"Status","apiVersion":"example.com/v9"}', 'Status in version "v9" cannot be handled as a Service: converting (v1.Status) to (core.Service): unknown conversion'],
      ['{"kind":"Deployment","apiVersion":"apps/v1"}', 'Deployment in version "v1" cannot be handled as a Service: converting (v1.Deployment) to (core.Service): unknown conversion'],
      [
        '{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v2"}',
        'HorizontalPodAutoscaler in version "v2" cannot be handled as a Service: converting (v2.HorizontalPodAutoscaler) to (core.Service): unknown conversion',
      ],
      [
        '{"kind":"service","apiVersion":"v1"}',
        'service in version "v1" cannot be handled as a Service: no kind "service" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
      ],
      [
        '{"kind":"Service","apiVersion":"v2"}',
        'Service in version "v2" cannot be handled as a Service: no kind "Service" is registered for version "v2" in scheme "pkg/api/legacyscheme/scheme.go:30"',
      ],
      ['{"apiVersion":"apps/v1"}', 'Service in version "v1" cannot be handled as a Service: no kind "Service" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
      ['{"apiVersion":"apps/"}', `Service in version "" cannot be handled as a Service: Object 'apiVersion' is missing in '{"apiVersion":"apps/"}'`],
      ['{"apiVersion":"__internal"}', 'the API version in the data (__internal) does not match the expected API version (v1)'],
    ])('%s', (body, message) => {
      expect(decodeError(body)).toBe(message);
    });
  });

  describe('decodeServiceValue', () => {
    it('decodes an already-parsed value with the same rules', () => {
      const { object, warnings } = decodeServiceValue({ metadata: { name: 'web', creationTimestamp: '2025-01-02T03:04:05.5Z' }, spec: { type: 'NodePort', foo: 1 } }, { fieldValidation: 'Warn' });
      expect(warnings).toEqual(['unknown field "spec.foo"']);
      expect(object.metadata.creationTimestamp).toBe('2025-01-02T03:04:05Z');
      expect(() => decodeServiceValue({ spec: { ports: [{ port: 1.5 }] } }, { fieldValidation: 'Strict' })).toThrow(
        PREFIX + 'json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.port of type int32',
      );
      expect(() => decodeServiceValue([], { fieldValidation: 'Strict' })).toThrow(/\(5b5d\)$/);
      expect(() => decodeServiceValue(undefined, { fieldValidation: 'Strict' })).toThrow(
        "the object provided is unrecognized (must be of type Service): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
      );
    });
  });
});
