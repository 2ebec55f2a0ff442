// RFC 7386 as kube-apiserver v1.32 answers it (handlers/patch.go + evanphx/json-patch v4 MergePatch).
import { BadRequestError } from '../domain/errors/domain-errors';
import { applyMergePatch } from './merge-patch';
import service from '../../test/fixtures/patch/web-service.json';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
const apply = (patch: unknown) => plain(applyMergePatch(service, JSON.stringify(patch)).patched);

describe('applyMergePatch', () => {
  it.each<[string, unknown, (s: any) => unknown, unknown]>([
    ['null deletes a selector key (case 63)', { spec: { selector: { app: null } } }, (s) => s.spec.selector, {}],
    ['maps merge', { spec: { selector: { tier: 'web' } } }, (s) => s.spec.selector, { app: 'web', tier: 'web' }],
    ['lists are replaced wholesale', { spec: { ports: [{ port: 53, protocol: 'UDP' }] } }, (s) => s.spec.ports, [{ port: 53, protocol: 'UDP' }]],
    ['status ingress publish', { status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } } }, (s) => s.status.loadBalancer, { ingress: [{ ip: '5.6.7.8' }] }],
    ['status ingress clear', { status: { loadBalancer: { ingress: null } } }, (s) => s.status.loadBalancer, {}],
    ['finalizers null removes them', { metadata: { finalizers: null } }, (s) => s.metadata.finalizers, undefined],
    ['nulls inside a new value are pruned', { spec: { sessionAffinityConfig: { clientIP: { timeoutSeconds: null } } } }, (s) => s.spec.sessionAffinityConfig, { clientIP: {} }],
    [
      'nulls inside objects in a new list are pruned, null items kept',
      { spec: { externalIPs: [null], ports: [{ port: 1, name: null }] } },
      (s) => [s.spec.externalIPs, s.spec.ports],
      [[null], [{ port: 1 }]],
    ],
    ['a `constructor` label is an ordinary key', { metadata: { labels: { constructor: 'x', app: null } } }, (s) => s.metadata.labels, { constructor: 'x' }],
    ['directives are plain data in a merge patch', { spec: { '$setElementOrder/ports': [{ port: 80 }] } }, (s) => s.spec['$setElementOrder/ports'], [{ port: 80 }]],
    ['a stale resourceVersion is carried through (caller answers 409)', { metadata: { resourceVersion: '1' } }, (s) => s.metadata.resourceVersion, '1'],
    ['an empty patch is a no-op', {}, (s) => s, plain(service)],
  ])('%s', (_name, patch, pick, expected) => {
    expect(pick(apply(patch))).toEqual(expected);
  });

  it('does not mutate the current object', () => {
    const before = plain(service);
    apply({ metadata: { labels: { app: null } } });
    expect(plain(service)).toEqual(before);
  });

  it.each<[string, string, 'Warn' | 'Strict' | 'Ignore', string]>([
    ['invalid JSON (case 66)', '{"spec":', 'Warn', 'error decoding patch: unexpected end of JSON input'],
    ['invalid JSON, Strict', '{x}', 'Strict', "error decoding patch: invalid character 'x' looking for beginning of object key string"],
    ['invalid JSON, Ignore', '{"spec":', 'Ignore', 'Invalid JSON Patch'],
    ['array body', '[]', 'Warn', 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['string body', '"x"', 'Warn', 'error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['null body', 'null', 'Warn', 'Invalid JSON Patch'],
    ['null body, Ignore', 'null', 'Ignore', 'Invalid JSON Patch'],
    ['scalar body, Ignore', '1', 'Ignore', 'Invalid JSON Patch'],
  ])('%s → 400', (_name, body, fieldValidation, message) => {
    let error: unknown;
    try {
      applyMergePatch(service, body, { fieldValidation });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toBe(message);
  });

  it('with Ignore an array body becomes the document itself (nulls pruned); decoding it then fails', () => {
    expect(plain(applyMergePatch(service, '[{"a":null,"b":1}]', { fieldValidation: 'Ignore' }).patched)).toEqual([{ b: 1 }]);
  });

  it('reports duplicate keys as strict findings; the last one wins', () => {
    const outcome = applyMergePatch(service, '{"spec":{"type":"NodePort","type":"ClusterIP"}}');
    expect(outcome.strictErrors).toEqual(['duplicate field "spec.type"']);
    expect((outcome.patched as any).spec.type).toBe('ClusterIP');
  });

  it('renders the patched JSON with merged maps key-sorted', () => {
    const { patchedJson } = applyMergePatch(service, '{"spec":{"selector":{"z":"1"}}}');
    expect(patchedJson).toContain('"spec":{"allocateLoadBalancerNodePorts":false,"clusterIP":"10.96.0.10"');
    expect(patchedJson).toContain('"selector":{"app":"web","z":"1"}');
    expect(patchedJson).toContain('"metadata":{"name":"web","namespace":"default"');
  });
});
