import { mergeObjects, MergeValidationError } from './object-merge';
import { SERVICE_MERGE_TYPE } from './service-merge-schema';
import { compareObjects } from './object-comparison';
import { fieldPathToString } from './field-path';
import { removeItems } from './remove-items';
import { FieldSet } from './field-set';
import { fieldElement, keyElement } from './path-element';

// Ports stand in for a generic list-map; a, b, c are ports 1, 2, 3 (protocol TCP).
const p = (port: number, extra: Record<string, unknown> = {}) => ({ port, protocol: 'TCP', ...extra });
const svc = (ports: unknown[] | undefined, extraSpec: Record<string, unknown> = {}) => ({ spec: { ...(ports === undefined ? {} : { ports }), ...extraSpec } });
const merged = (live: unknown, config: unknown) => mergeObjects(live, config, SERVICE_MERGE_TYPE) as { spec: { ports?: unknown[]; externalIPs?: unknown } };

describe('merge by schema', () => {
  it('given equal items, when merged, then nothing changes', () => {
    expect(merged(svc([p(1, { name: 'x' })]), svc([p(1, { name: 'x' })])).spec.ports).toEqual([p(1, { name: 'x' })]);
  });

  it('given a new key, when merged, then the applied item follows the live ones', () => {
    expect(merged(svc([p(1)]), svc([p(1, { protocol: 'UDP' })])).spec.ports).toEqual([p(1), p(1, { protocol: 'UDP' })]);
    expect(merged(svc([p(1), p(2)]), svc([p(1), p(1, { protocol: 'UDP' })])).spec.ports).toEqual([p(1), p(2), p(1, { protocol: 'UDP' })]);
  });

  it('given applied items around a live one, when merged, then the applied order wins for shared items', () => {
    expect(merged(svc([p(2)]), svc([p(1), p(2), p(3)])).spec.ports).toEqual([p(1), p(2), p(3)]);
    expect(merged(svc([p(1), p(2), p(3)]), svc([p(3), p(2)])).spec.ports).toEqual([p(1), p(3), p(2)]);
    expect(merged(svc([p(1), p(2), p(3)]), svc([p(3), p(1)])).spec.ports).toEqual([p(2), p(3), p(1)]);
  });

  it('given duplicated live keys, when the config sets that key, then one merged item replaces the duplicates', () => {
    const live = svc([p(1, { name: 'a' }), p(2), p(1, { name: 'b', nodePort: 2 })]);
    expect(merged(live, svc([p(1, { nodePort: 3 }), p(3), p(2)])).spec.ports).toEqual([p(1, { nodePort: 3 }), p(3), p(2)]);
    expect(merged(svc([p(1, { name: 'a' }), p(1, { name: 'b' })]), svc([])).spec.ports).toEqual([p(1, { name: 'a' }), p(1, { name: 'b' })]);
    expect(merged(svc([p(1, { name: 'a' }), p(1, { name: 'b' })]), {}).spec.ports).toEqual([p(1, { name: 'a' }), p(1, { name: 'b' })]);
  });

  it('given atomic lists, when merged, then the applied value replaces the live one, null and [] included', () => {
    expect(merged(svc(undefined, { externalIPs: ['a', 'a'] }), svc(undefined, { externalIPs: null })).spec.externalIPs).toBeNull();
    expect(merged(svc(undefined, { externalIPs: ['a', 'b'] }), svc(undefined, { externalIPs: [] })).spec.externalIPs).toEqual([]);
    expect(merged(svc(undefined, { externalIPs: ['a', 'b'] }), svc(undefined, { externalIPs: ['a'] })).spec.externalIPs).toEqual(['a']);
  });

  it('given granular and atomic maps, when merged, then labels merge per key and the selector is replaced whole', () => {
    const out = mergeObjects(
      { metadata: { labels: { a: '1', b: '2' } }, spec: { selector: { a: '1', b: '2' } } },
      { metadata: { labels: { b: '3' } }, spec: { selector: { c: '3' } } },
      SERVICE_MERGE_TYPE,
    );
    expect(out).toEqual({ metadata: { labels: { a: '1', b: '3' } }, spec: { selector: { c: '3' } } });
  });

  it('given an applied item without a protocol, when merged, then it merges into the live TCP port', () => {
    expect(merged(svc([p(80, { targetPort: 80 })]), svc([{ port: 80, targetPort: 8080 }])).spec.ports).toEqual([p(80, { targetPort: 8080 })]);
  });

  it('given two conditions without a type, when merged, then they collide on the default key and the configuration is refused', () => {
    expect(() => mergeObjects({}, { status: { conditions: [{ status: 'True' }, { status: 'False' }] } }, SERVICE_MERGE_TYPE)).toThrow(MergeValidationError);
  });
});

describe('compare by schema', () => {
  it('given a new port and a changed type, when compared, then the port subtree is added and the type modified', () => {
    const c = compareObjects({ spec: { type: 'ClusterIP', ports: [p(80)] } }, { spec: { type: 'NodePort', ports: [p(80), p(443)] } }, SERVICE_MERGE_TYPE);
    expect(c.modified.paths().map(fieldPathToString)).toEqual(['.spec.type']);
    expect(c.added.paths().map(fieldPathToString)).toEqual(['.spec.ports[port=443,protocol="TCP"]', '.spec.ports[port=443,protocol="TCP"].port', '.spec.ports[port=443,protocol="TCP"].protocol']);
    expect(c.removed.isEmpty()).toBe(true);
  });

  it('given an atomic list that changed inside, when compared, then only the list itself is modified', () => {
    const c = compareObjects({ status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } }, { status: { loadBalancer: { ingress: [{ ip: '2.2.2.2' }] } } }, SERVICE_MERGE_TYPE);
    expect(c.modified.paths().map(fieldPathToString)).toEqual(['.status.loadBalancer.ingress']);
  });

  it('given a finalizer set, when one is added, then it is a `v:` item', () => {
    const c = compareObjects({ metadata: { finalizers: ['a'] } }, { metadata: { finalizers: ['a', 'b'] } }, SERVICE_MERGE_TYPE);
    expect(c.added.paths().map(fieldPathToString)).toEqual(['.metadata.finalizers[="b"]']);
  });
});

describe('remove items', () => {
  it('given the last label and a port, when removed, then emptied containers become null as in SMD', () => {
    const ports = [fieldElement('spec'), fieldElement('ports')];
    const toRemove = FieldSet.of(
      [fieldElement('metadata'), fieldElement('labels'), fieldElement('a')],
      [
        ...ports,
        keyElement([
          { name: 'port', value: 443 },
          { name: 'protocol', value: 'TCP' },
        ]),
      ],
    );
    const out = removeItems({ metadata: { name: 'web', labels: { a: '1' } }, spec: { ports: [p(80), p(443)] } }, toRemove, SERVICE_MERGE_TYPE);
    expect(out).toEqual({ metadata: { name: 'web', labels: null }, spec: { ports: [p(80)] } });
  });
});
