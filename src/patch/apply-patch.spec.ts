import fc from 'fast-check';
import { generate } from 'json-merge-patch';
import { decodeServiceValue } from '../domain/codec/service-decoder';
import { ObjectDecodeError } from '../domain/codec/object-decode-error';
import { BadRequestError } from '../domain/errors/domain-errors';
import { applyPatch, applyPatchOutcome, patchedObjectInvalid } from './apply-patch';
import { applyStrategicMergePatch } from './strategic-merge-patch';
import service from '../../test/fixtures/patch/web-service.json';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('applyPatch', () => {
  it.each<['json' | 'merge' | 'strategic', string]>([
    ['json', '[{"op":"add","path":"/spec/selector/tier","value":"web"}]'],
    ['merge', '{"spec":{"selector":{"tier":"web"}}}'],
    ['strategic', '{"spec":{"selector":{"tier":"web"}}}'],
  ])('%s patch', (type, body) => {
    expect(plain(applyPatch(service, body, type))).toEqual({ ...plain(service), spec: { ...plain(service).spec, selector: { app: 'web', tier: 'web' } } });
  });

  it('merge patch keeps SMP directives as data; SMP consumes them (the probe bug in §9)', () => {
    const body = '{"spec":{"$setElementOrder/ports":[{"port":443},{"port":80}],"ports":[{"$patch":"delete","port":80}]}}';
    expect((applyPatch(service, body, 'merge') as any).spec.ports).toEqual([{ $patch: 'delete', port: 80 }]);
    expect(plain(applyPatch(service, body, 'strategic')).spec).toEqual({
      ...plain(service).spec,
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 8443 }],
    });
  });

  it.each<[string, string, string]>([
    ['invalid JSON: the decoder error alone, no prefix', '{"spec":', 'unexpected end of JSON input'],
    ['array body', '[{"op":"add"}]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['string body', '"x"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
  ])('strategic body: %s → 400', (_name, body, message) => {
    expect(() => applyPatch(service, body, 'strategic')).toThrow(BadRequestError);
    expect(() => applyPatch(service, body, 'strategic')).toThrow(message);
  });

  it('strategic body: null is a no-op; duplicates are strict findings', () => {
    expect(plain(applyPatch(service, 'null', 'strategic'))).toEqual(plain(service));
    expect(applyPatchOutcome(service, '{"spec":{"type":"A","type":"B"}}', 'strategic').strictErrors).toEqual(['duplicate field "spec.type"']);
  });

  it('SMP keeps unknown $-keys; the decoder then reports them as unknown fields (Warn → warning)', () => {
    const patched = applyPatch(service, '{"spec":{"$foo":"bar"}}', 'strategic');
    expect(decodeServiceValue(patched, { fieldValidation: 'Warn' }).warnings).toEqual(['unknown field "spec.$foo"']);
  });
});

describe('patchedObjectInvalid (the 422 for a patched object that does not decode)', () => {
  it('renders with empty kind and name', () => {
    const error = patchedObjectInvalid('{"spec":{"ports":"x"}}', 'json: cannot unmarshal string into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort');
    expect(error.message).toBe(
      ' "" is invalid: patch: Invalid value: "{\\"spec\\":{\\"ports\\":\\"x\\"}}": json: cannot unmarshal string into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort',
    );
    expect(error.reason).toBe('Invalid');
    expect(error.details).toEqual({
      name: undefined,
      kind: '',
      causes: [
        {
          reason: 'FieldValueInvalid',
          field: 'patch',
          message: 'Invalid value: "{\\"spec\\":{\\"ports\\":\\"x\\"}}": json: cannot unmarshal string into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort',
        },
      ],
    });
  });

  it('is what the caller builds from a decode failure of a merge-patched object', () => {
    const outcome = applyPatchOutcome(service, '{"spec":{"ports":"x"}}', 'merge');
    let decodeError: ObjectDecodeError | undefined;
    try {
      decodeServiceValue(outcome.patched, { fieldValidation: 'Strict' });
    } catch (e) {
      decodeError = e as ObjectDecodeError;
    }
    expect(decodeError).toBeInstanceOf(ObjectDecodeError);
    const error = patchedObjectInvalid(outcome.patchedJson, decodeError!.decoderMessage);
    expect(error.message.startsWith(' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Service\\",')).toBe(true);
    expect(error.message.endsWith(`": ${decodeError!.decoderMessage}`)).toBe(true);
  });
});

describe('properties', () => {
  const serviceLike = serviceLikeWith(fc.constantFrom('app', 'tier', 'env', 'constructor', '__proto__', 'a.b/c'));
  // json-merge-patch's generate() cannot produce a `__proto__` member, so that property avoids it.
  const serviceLikeNoProto = serviceLikeWith(fc.constantFrom('app', 'tier', 'env', 'constructor', 'a.b/c'));
  const clean = (value: unknown) => JSON.parse(JSON.stringify(value));

  function serviceLikeWith(key: fc.Arbitrary<string>) {
    const stringMap = fc.option(fc.dictionary(key, fc.string({ maxLength: 3 }), { minKeys: 1, maxKeys: 4 }), { nil: undefined });
    const port = fc.record({ port: fc.integer({ min: 1, max: 6 }), name: fc.constantFrom('a', 'b', 'c'), protocol: fc.constantFrom('TCP', 'UDP') });
    const ports = fc.uniqueArray(port, { selector: (p) => p.port, minLength: 1, maxLength: 5 });
    const finalizers = fc.option(fc.uniqueArray(fc.constantFrom('x.io/a', 'x.io/b', 'x.io/c', 'x.io/d'), { minLength: 1 }), { nil: undefined });
    return fc.record({
      metadata: fc.record({ name: fc.constant('web'), labels: stringMap, annotations: stringMap, finalizers }, { requiredKeys: ['name'] }),
      spec: fc.record(
        {
          ports,
          selector: stringMap,
          type: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'),
          externalIPs: fc.option(fc.array(fc.constantFrom('192.0.2.1', '192.0.2.2'), { minLength: 1 }), { nil: undefined }),
        },
        { requiredKeys: ['ports', 'type'] },
      ),
    });
  }

  /** A two-way SMP: replace changed map keys, null removed ones, `$patch: replace` the ports. */
  function smpDiff(from: any, to: any): any {
    const mapDiff = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) => {
      if (!b) return null;
      const out: Record<string, string | null> = Object.create(null);
      for (const k of Object.keys(b)) out[k] = b[k];
      for (const k of Object.keys(a ?? {})) if (!Object.prototype.hasOwnProperty.call(b, k)) out[k] = null;
      return out;
    };
    const metadata: any = Object.create(null);
    metadata.labels = mapDiff(from.metadata.labels, to.metadata.labels);
    metadata.annotations = mapDiff(from.metadata.annotations, to.metadata.annotations);
    if (to.metadata.finalizers) {
      const removed = (from.metadata.finalizers ?? []).filter((f: string) => !to.metadata.finalizers.includes(f));
      metadata['$setElementOrder/finalizers'] = to.metadata.finalizers;
      metadata.finalizers = to.metadata.finalizers;
      if (removed.length) metadata['$deleteFromPrimitiveList/finalizers'] = removed;
    } else {
      metadata.finalizers = null;
    }
    return {
      metadata,
      spec: {
        ports: [{ $patch: 'replace' }, ...to.spec.ports],
        selector: mapDiff(from.spec.selector, to.spec.selector),
        type: to.spec.type,
        externalIPs: to.spec.externalIPs ?? null,
      },
    };
  }

  it('SMP: applying a "replace every changed key" patch yields the target', () => {
    fc.assert(
      fc.property(serviceLike, serviceLike, (from, to) => {
        const source = clean(from);
        const target = clean(to);
        const patched = applyStrategicMergePatch(source, JSON.parse(JSON.stringify(smpDiff(source, target))));
        expect(clean(patched)).toEqual(target);
      }),
    );
  });

  it('merge patch: applying json-merge-patch generate(source, target) yields the target', () => {
    fc.assert(
      fc.property(serviceLikeNoProto, serviceLikeNoProto, (from, to) => {
        const source = clean(from);
        const target = clean(to);
        const body = JSON.stringify(generate(source, target) ?? {});
        expect(clean(applyPatch(source, body, 'merge'))).toEqual(target);
      }),
    );
  });

  it('an empty patch is the identity for every mechanism', () => {
    fc.assert(
      fc.property(serviceLike, (from) => {
        const source = clean(from);
        expect(clean(applyPatch(source, '[]', 'json'))).toEqual(source);
        expect(clean(applyPatch(source, '{}', 'merge'))).toEqual(source);
        expect(clean(applyPatch(source, '{}', 'strategic'))).toEqual(source);
      }),
    );
  });
});
