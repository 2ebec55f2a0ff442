import fc from 'fast-check';
import { jsonCopy } from './json-copy';

/** JSON values, with undefined-valued properties as decoded objects can carry. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true }),
    fc.string(),
    fc.array(tie('value')),
    fc.dictionary(fc.string(), fc.option(tie('value'), { nil: undefined })),
  ),
})).value;

/** Every object and array reachable from `value`. */
function containers(value: unknown, out: object[] = []): object[] {
  if (value !== null && typeof value === 'object') {
    out.push(value);
    for (const child of Object.values(value)) containers(child, out);
  }
  return out;
}

describe('jsonCopy', () => {
  it('given any JSON-shaped value, when copied, then the copy equals what structuredClone gives, key order included', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        const copy = jsonCopy(value);
        expect(copy).toStrictEqual(structuredClone(value));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('given any JSON-shaped value, when copied, then no object or array is shared with the original', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        const originals = new Set(containers(value));
        expect(containers(jsonCopy(value)).filter((c) => originals.has(c))).toEqual([]);
      }),
    );
  });

  it('given an own "__proto__" key (JSON.parse makes one), when copied, then it stays an own key and the prototype stays Object', () => {
    const value = JSON.parse('{"labels":{"__proto__":{"polluted":true},"app":"web"}}') as { labels: Record<string, unknown> };
    const copy = jsonCopy(value);
    expect(Object.keys(copy.labels)).toEqual(['__proto__', 'app']);
    expect(Object.getPrototypeOf(copy.labels)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it('given a Service, when its copy is changed, then the original is not', () => {
    const service = { metadata: { name: 'web', labels: { app: 'web' } }, status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } } };
    const copy = jsonCopy(service);
    copy.metadata.labels.app = 'api';
    copy.status.loadBalancer.ingress.push({ ip: '10.0.0.2' });
    expect(service).toEqual({ metadata: { name: 'web', labels: { app: 'web' } }, status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } } });
  });
});
