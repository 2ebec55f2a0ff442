// RFC 6902 as kube-apiserver v1.32 answers it (handlers/patch.go + evanphx/json-patch v4.12.0).
import { BadRequestError } from '../domain/errors/domain-errors';
import { applyJsonPatch } from './json-patch';
import { PatchRejectedError } from './patch-rejected-error';
import { PatchTooLargeError } from './patch-too-large-error';
import service from '../../test/fixtures/patch/web-service.json';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
const apply = (ops: unknown, opts = {}) => plain(applyJsonPatch(service, JSON.stringify(ops), opts).patched);

describe('applyJsonPatch: operations', () => {
  it.each<[string, unknown[], (s: any) => unknown, unknown]>([
    ['replace an existing value', [{ op: 'replace', path: '/spec/selector/app', value: 'api' }], (s) => s.spec.selector, { app: 'api' }],
    ['replace of a missing object key adds it (v4)', [{ op: 'replace', path: '/metadata/labels/new', value: 'x' }], (s) => s.metadata.labels, { app: 'web', new: 'x' }],
    ['add a label', [{ op: 'add', path: '/metadata/labels/tier', value: 'db' }], (s) => s.metadata.labels, { app: 'web', tier: 'db' }],
    ['add a list', [{ op: 'add', path: '/spec/externalIPs', value: ['192.0.2.1'] }], (s) => s.spec.externalIPs, ['192.0.2.1']],
    ['append with -', [{ op: 'add', path: '/spec/ports/-', value: { port: 53 } }], (s) => s.spec.ports.map((p: any) => p.port), [80, 443, 53]],
    ['insert at an index', [{ op: 'add', path: '/spec/ports/0', value: { port: 53 } }], (s) => s.spec.ports.map((p: any) => p.port), [53, 80, 443]],
    ['add at -1 inserts before the end', [{ op: 'add', path: '/spec/ports/-1', value: { port: 53 } }], (s) => s.spec.ports.map((p: any) => p.port), [80, 443, 53]],
    ['remove a negative index counts from the end', [{ op: 'remove', path: '/spec/ports/-1' }], (s) => s.spec.ports.map((p: any) => p.port), [80]],
    ['replace through a negative index', [{ op: 'replace', path: '/spec/ports/-2/port', value: 81 }], (s) => s.spec.ports.map((p: any) => p.port), [81, 443]],
    ['remove a key', [{ op: 'remove', path: '/metadata/annotations/team' }], (s) => s.metadata.annotations, {}],
    ['move', [{ op: 'move', from: '/metadata/annotations/team', path: '/metadata/labels/team' }], (s) => [s.metadata.labels, s.metadata.annotations], [{ app: 'web', team: 'a' }, {}]],
    ['copy', [{ op: 'copy', from: '/spec/selector/app', path: '/metadata/labels/copied' }], (s) => s.metadata.labels, { app: 'web', copied: 'web' }],
    ['copy from a missing key copies null', [{ op: 'copy', from: '/metadata/labels/nope', path: '/metadata/labels/x' }], (s) => s.metadata.labels, { app: 'web', x: null }],
    ['add without value adds null', [{ op: 'add', path: '/metadata/labels/x' }], (s) => s.metadata.labels, { app: 'web', x: null }],
    ['~1 and ~0 unescape', [{ op: 'add', path: '/metadata/annotations/example.com~1a~0b', value: 'v' }], (s) => s.metadata.annotations, { team: 'a', 'example.com/a~b': 'v' }],
    ['a path without a leading / drops its first segment', [{ op: 'add', path: 'x/y', value: 1 }], (s) => s.y, 1],
    ['`__proto__` is an ordinary key', [{ op: 'add', path: '/metadata/labels/__proto__', value: 'p' }], (s) => Object.keys(s.metadata.labels), ['app', '__proto__']],
    [
      'test passes then replace applies',
      [
        { op: 'test', path: '/spec/type', value: 'LoadBalancer' },
        { op: 'test', path: '/spec/ports/0', value: { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 } },
        { op: 'test', path: '/metadata/labels/missing', value: null },
        { op: 'test', path: '/metadata/labels/missing' },
        { op: 'replace', path: '/spec/type', value: 'ClusterIP' },
      ],
      (s) => s.spec.type,
      'ClusterIP',
    ],
    [
      'ingress ip replace (kubectl patch --type=json)',
      [{ op: 'replace', path: '/status/loadBalancer/ingress/0/ip', value: '9.9.9.9' }],
      (s) => s.status.loadBalancer.ingress,
      [{ ip: '9.9.9.9', ipMode: 'VIP' }],
    ],
    ['an empty patch is a no-op', [], (s) => s, plain(service)],
  ])('%s', (_name, ops, pick, expected) => {
    expect(pick(apply(ops))).toEqual(expected);
  });

  it('null body is a no-op', () => {
    expect(plain(applyJsonPatch(service, 'null').patched)).toEqual(plain(service));
  });

  it('does not mutate the current object and is atomic', () => {
    const before = plain(service);
    expect(() =>
      apply([
        { op: 'add', path: '/metadata/labels/x', value: '1' },
        { op: 'remove', path: '/nope' },
      ]),
    ).toThrow(PatchRejectedError);
    expect(plain(service)).toEqual(before);
  });
});

describe('applyJsonPatch: failed operations → generic 422', () => {
  it.each<[string, unknown[]]>([
    ['test mismatch', [{ op: 'test', path: '/spec/type', value: 'ClusterIP' }]],
    ['test compares number text (80 vs 80.0)', [{ op: 'test', path: '/spec/ports/0/port', value: 80.5 }]],
    ['test of an object with an extra key', [{ op: 'test', path: '/spec/selector', value: { app: 'web', x: 'y' } }]],
    ['test without value on a present member', [{ op: 'test', path: '/spec/type' }]],
    ['remove a missing key', [{ op: 'remove', path: '/metadata/labels/nope' }]],
    ['replace under a missing parent (kubectl case 23)', [{ op: 'replace', path: '/status/nope/0', value: 1 }]],
    ['replace an index past the end', [{ op: 'replace', path: '/spec/ports/2', value: {} }]],
    ['add an index past the end', [{ op: 'add', path: '/spec/ports/5', value: {} }]],
    ['add a non-numeric index', [{ op: 'add', path: '/spec/ports/x', value: {} }]],
    ['remove a negative index before the start', [{ op: 'remove', path: '/spec/ports/-3' }]],
    ['unknown op', [{ op: 'foo', path: '/spec' }]],
    ['missing op', [{ path: '/spec' }]],
    ['missing path', [{ op: 'add', value: 1 }]],
    ['empty path for add', [{ op: 'add', path: '', value: {} }]],
    ['null operation', [null]],
    ['move from a missing key', [{ op: 'move', from: '/metadata/labels/nope', path: '/metadata/labels/x' }]],
    ['traverse through a scalar', [{ op: 'add', path: '/spec/type/x', value: 1 }]],
    [
      'traverse through null-valued member',
      [
        { op: 'add', path: '/metadata/labels/x', value: null },
        { op: 'add', path: '/metadata/labels/x/y', value: 1 },
      ],
    ],
  ])('%s', (_name, ops) => {
    let error: unknown;
    try {
      applyJsonPatch(service, JSON.stringify(ops));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PatchRejectedError);
    const rejected = error as PatchRejectedError;
    expect(rejected.message).toBe('the server rejected our request due to an error in our request');
    expect(rejected.reason).toBe('Invalid');
    expect(rejected.details).toEqual({});
  });
});

describe('applyJsonPatch: body decoding', () => {
  it.each<[string, string, 'Warn' | 'Strict' | 'Ignore', string]>([
    ['object body (client-node default content type)', '{}', 'Warn', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
    ['object body, Ignore', '{}', 'Ignore', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['string body', '"x"', 'Strict', 'error decoding patch: json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp'],
    ['number element', '[1]', 'Warn', 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
    ['number element, Ignore', '[1]', 'Ignore', 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
    ['op of the wrong type', '[{"op":1,"path":"/a"}]', 'Warn', 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
    ['op is an array', '[{"op":["add"],"path":"/spec"}]', 'Warn', 'error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.op of type string'],
    ['path of the wrong type', '[{"op":"add","path":{}}]', 'Strict', 'error decoding patch: json: cannot unmarshal object into Go struct field jsonPatchOp.path of type string'],
    ['truncated', '[', 'Warn', 'error decoding patch: unexpected end of JSON input'],
    ['truncated, Ignore', '[', 'Ignore', 'unexpected end of JSON input'],
    ['empty body', '', 'Warn', 'error decoding patch: unexpected end of JSON input'],
    ['bad character', '[x]', 'Warn', "error decoding patch: invalid character 'x' looking for beginning of value"],
  ])('%s → 400', (_name, body, fieldValidation, message) => {
    expect(() => applyJsonPatch(service, body, { fieldValidation })).toThrow(new BadRequestError(message));
    try {
      applyJsonPatch(service, body, { fieldValidation });
    } catch (e) {
      expect(e).toBeInstanceOf(BadRequestError);
      expect((e as BadRequestError).message).toBe(message);
    }
  });

  it('more than 10000 operations → 413', () => {
    const op = { op: 'test', path: '/kind', value: 'Service' };
    expect(() => applyJsonPatch(service, JSON.stringify(Array(10000).fill(op)))).not.toThrow();
    const tooMany = () => applyJsonPatch(service, JSON.stringify(Array(10001).fill(op)));
    expect(tooMany).toThrow(PatchTooLargeError);
    expect(tooMany).toThrow('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    try {
      tooMany();
    } catch (e) {
      expect((e as PatchTooLargeError).reason).toBe('RequestEntityTooLarge');
      expect((e as PatchTooLargeError).details).toBeUndefined();
    }
  });

  it('reports unknown and duplicate op fields as strict findings (not with Ignore)', () => {
    const body = '[{"op":"add","path":"/metadata/labels/a","value":{"x":1,"x":2},"foo":1,"op":"add"}]';
    expect(applyJsonPatch(service, body).strictErrors).toEqual(['json patch duplicate field "[0].value.x"', 'json patch unknown field "[0].foo"', 'json patch duplicate field "[0].op"']);
    expect(applyJsonPatch(service, body, { fieldValidation: 'Ignore' }).strictErrors).toEqual([]);
  });
});

describe('applyJsonPatch: patched JSON text (BadValue of the decode-failure 422)', () => {
  it('sorts the keys of the root and of every map it walked through; untouched subtrees keep served order', () => {
    const { patchedJson } = applyJsonPatch(service, '[{"op":"add","path":"/metadata/labels/b<c","value":"x&y"}]');
    expect(patchedJson.startsWith('{"apiVersion":"v1","kind":"Service","metadata":{"annotations":{"team":"a"},"creationTimestamp"')).toBe(true);
    expect(patchedJson).toContain('"labels":{"app":"web","b\\u003cc":"x\\u0026y"}');
    expect(patchedJson).toContain('"spec":{"ports":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080}');
  });
});
