import { FieldSet } from './field-set';
import { fieldSetToFieldsV1, fieldsV1Json, fieldsV1ToFieldSet } from './fields-v1';
import { fieldPath } from './field-path';
import { fieldElement, indexElement, keyElement, type PathElement, valueElement } from './path-element';

/** The creator's entry of object-semantics.md §1.7 (POST by curl, ports [{port: 80}]). */
const KUBE_CREATE_ENTRY =
  '{"f:spec":{"f:internalTrafficPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}';

const port = (p: number, protocol = 'TCP'): PathElement =>
  keyElement([
    { name: 'protocol', value: protocol },
    { name: 'port', value: p },
  ]);

describe('FieldsV1', () => {
  it('given a real kube-apiserver entry, when read and written back, then the bytes are identical', () => {
    const set = fieldsV1ToFieldSet(JSON.parse(KUBE_CREATE_ENTRY));
    expect(fieldsV1Json(set)).toBe(KUBE_CREATE_ENTRY);
    expect(set.has([fieldElement('spec'), fieldElement('ports'), port(80), fieldElement('targetPort')])).toBe(true);
    expect(set.has(fieldPath('spec', 'ports'))).toBe(true);
    expect(set.has(fieldPath('spec'))).toBe(false);
  });

  it('given ports 443 and 80, when written, then keys compare by value (80 first) and key fields are sorted', () => {
    const set = FieldSet.of(
      [fieldElement('spec'), fieldElement('ports'), port(443), fieldElement('port')],
      [fieldElement('spec'), fieldElement('ports'), port(80), fieldElement('port')],
      [fieldElement('spec'), fieldElement('ports'), port(80, 'UDP'), fieldElement('port')],
    );
    expect(fieldsV1Json(set)).toBe(
      '{"f:spec":{"f:ports":{' +
        '"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{"f:port":{}},' +
        '"k:{\\"port\\":80,\\"protocol\\":\\"UDP\\"}":{"f:port":{}},' +
        '"k:{\\"port\\":443,\\"protocol\\":\\"TCP\\"}":{"f:port":{}}}}}',
    );
  });

  it('given a condition applied by a controller, when written, then it is keyed by type under f:status', () => {
    const ready = keyElement([{ name: 'type', value: 'Ready' }]);
    const base = [fieldElement('status'), fieldElement('conditions'), ready];
    const set = FieldSet.of(
      base,
      [...base, fieldElement('type')],
      [...base, fieldElement('status')],
      [...base, fieldElement('reason')],
      [...base, fieldElement('message')],
      [...base, fieldElement('lastTransitionTime')],
    );
    expect(fieldsV1Json(set)).toBe('{"f:status":{"f:conditions":{"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}}}}');
  });

  it('given labels owned by an updater, when written, then the map itself is `.` before its keys', () => {
    const set = FieldSet.of(fieldPath('metadata', 'labels'), fieldPath('metadata', 'labels', 'tier'), fieldPath('metadata', 'labels', 'app'));
    expect(fieldsV1Json(set)).toBe('{"f:metadata":{"f:labels":{".":{},"f:app":{},"f:tier":{}}}}');
  });

  it('given every element kind at one level, when written, then the order is f < k < v < i', () => {
    const set = FieldSet.of([indexElement(0)], [valueElement('x')], [keyElement([{ name: 'a', value: 1 }])], [fieldElement('z')]);
    expect(Object.keys(fieldSetToFieldsV1(set))).toEqual(['f:z', 'k:{"a":1}', 'v:"x"', 'i:0']);
  });

  it('given a key value with HTML characters, when written, then Go escapes them inside and outside the key', () => {
    const set = FieldSet.of([fieldElement('status'), fieldElement('conditions'), keyElement([{ name: 'type', value: 'a<b&c' }])]);
    expect(fieldsV1Json(set)).toBe('{"f:status":{"f:conditions":{"k:{\\"type\\":\\"a\\\\u003cb\\\\u0026c\\"}":{}}}}');
    expect(fieldsV1ToFieldSet(JSON.parse(fieldsV1Json(set))).equals(set)).toBe(true);
  });

  it('given unknown element types, when read, then they are dropped like SMD does', () => {
    expect(fieldsV1Json(fieldsV1ToFieldSet({ 'f:a': {}, 'x:b': {} }))).toBe('{"f:a":{}}');
  });

  it('given malformed keys or values, when read, then reading fails', () => {
    expect(() => fieldsV1ToFieldSet({ f: {} })).toThrow();
    expect(() => fieldsV1ToFieldSet({ fx: {} })).toThrow();
    expect(() => fieldsV1ToFieldSet({ 'k:{': {} })).toThrow();
    expect(() => fieldsV1ToFieldSet({ 'i:x': {} })).toThrow();
    expect(() => fieldsV1ToFieldSet({ 'f:a': 1 })).toThrow();
    expect(() => fieldsV1ToFieldSet([])).toThrow();
  });
});
