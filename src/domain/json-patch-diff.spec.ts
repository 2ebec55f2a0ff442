import fc from 'fast-check';
import { applyPatch, deepClone } from 'fast-json-patch';
import { encodeService } from './codec/service-encoder';
import type { Service } from './service.types';
import { jsonPatchBetween, jsonPatchText, jsonPatchTextOfObjects } from './json-patch-diff';

const apply = (doc: unknown, patch: ReturnType<typeof jsonPatchBetween>) => applyPatch(deepClone(doc) as object, deepClone(patch), true, false).newDocument as unknown;

describe('jsonPatchBetween', () => {
  it('creates from nothing and deletes to nothing', () => {
    expect(jsonPatchBetween(null, { a: 1 })).toEqual([{ op: 'add', path: '', value: { a: 1 } }]);
    expect(jsonPatchBetween({ a: 1 }, null)).toEqual([{ op: 'replace', path: '', value: null }]);
    expect(apply({ a: 1 }, jsonPatchBetween({ a: 1 }, null))).toBeNull();
  });

  it('escapes keys with / and ~ (annotations, labels)', () => {
    expect(jsonPatchBetween({ l: { 'app.io/x~': 'a' } }, { l: { 'app.io/x~': 'b' } })).toEqual([{ op: 'replace', path: '/l/app.io~1x~0', value: 'b' }]);
  });

  it('round-trips: applying the patch to the previous object yields the next one', () => {
    // Without "__proto__" keys: the patch names them correctly, but fast-json-patch's applier refuses
    // them (prototype pollution guard), and no Service field or label key can be one.
    const noProto = (v: unknown) => !JSON.stringify(v).includes('"__proto__"');
    const json = fc.jsonValue({ maxDepth: 4 }).filter(noProto);
    const doc = fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 6 }).filter(noProto), fc.array(json, { maxLength: 6 }), json);
    fc.assert(
      fc.property(doc, doc, (rawA, rawB) => {
        // Through JSON, as revisions are stored (no -0).
        const [a, b] = [JSON.parse(JSON.stringify(rawA)), JSON.parse(JSON.stringify(rawB))];
        expect(apply(a, jsonPatchBetween(a, b))).toEqual(b);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips on Service-shaped objects whose lists grow, shrink and change type', () => {
    const port = fc.record({ name: fc.constantFrom('http', 'https', 'dns'), port: fc.integer({ min: 1, max: 65535 }), protocol: fc.constantFrom('TCP', 'UDP') });
    const ingress = fc.array(fc.oneof(fc.record({ ip: fc.ipV4() }), fc.record({ hostname: fc.domain() })), { maxLength: 4 });
    const service = fc.record({
      metadata: fc.record({ name: fc.constant('web'), labels: fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 3 })), { nil: undefined }) }, { requiredKeys: ['name'] }),
      spec: fc.record({ ports: fc.array(port, { maxLength: 4 }), type: fc.constantFrom('ClusterIP', 'LoadBalancer') }),
      status: fc.record({ loadBalancer: fc.record({ ingress }) }, { requiredKeys: [] }),
    });
    fc.assert(
      fc.property(service, service, (a, b) => {
        const [x, y] = [JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))];
        expect(apply(x, jsonPatchBetween(x, y))).toEqual(y);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives, from the encoded objects, the text jsonPatchText gives from their stored JSON (labels and annotations are null-prototype maps)', () => {
    const labels = fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 3 }), { maxKeys: 4 }), { nil: undefined });
    const port = fc.record({ name: fc.constantFrom('http', 'https'), port: fc.integer({ min: 1, max: 65535 }), protocol: fc.constantFrom('TCP', 'UDP') });
    const ingress = fc.array(fc.oneof(fc.record({ ip: fc.ipV4() }), fc.record({ hostname: fc.domain() })), { maxLength: 3 });
    const condition = fc.record({
      type: fc.constantFrom('Ready', 'Synced'),
      status: fc.constantFrom('True', 'False'),
      reason: fc.string({ maxLength: 4 }),
      message: fc.string({ maxLength: 8 }),
      lastTransitionTime: fc.constant('2026-01-02T03:04:05Z'),
    });
    const service = fc
      .record({
        metadata: fc.record({ name: fc.constant('web'), namespace: fc.constant('default'), labels, annotations: labels }),
        spec: fc.record({ ports: fc.array(port, { maxLength: 3 }), type: fc.constantFrom('ClusterIP', 'LoadBalancer') }),
        status: fc.record({ loadBalancer: fc.record({ ingress }), conditions: fc.array(condition, { maxLength: 2 }) }),
      })
      .map((s) => encodeService(s as unknown as Service));
    fc.assert(
      fc.property(fc.option(service, { nil: null }), service, (a, b) => {
        const next = JSON.stringify(b);
        expect(jsonPatchTextOfObjects(a, b, next)).toBe(jsonPatchText(a === null ? null : JSON.stringify(a), next));
      }),
      { numRuns: 1000 },
    );
    expect(jsonPatchTextOfObjects({ a: 1 }, null, null)).toBe(jsonPatchText('{"a":1}', null));
  });
});
