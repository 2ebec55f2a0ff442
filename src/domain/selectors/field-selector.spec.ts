import { BadRequestError } from '../errors/domain-errors';
import { type Service } from '../service.types';
import { matchesFields, parseFieldSelector, requiredFieldValue, SERVICE_SELECTABLE_FIELDS, serviceFieldSet } from './field-selector';

const parse = (text: string) => parseFieldSelector(text, SERVICE_SELECTABLE_FIELDS);

const web: Service = {
  metadata: { name: 'web', namespace: 'default' },
  spec: { type: 'NodePort', clusterIP: '10.96.0.10' },
  status: { loadBalancer: {} },
};

describe('parseFieldSelector (fields.ParseSelector + ConvertFieldLabel)', () => {
  it.each([
    ['', []],
    [',', []],
    ['metadata.name=web', [{ field: 'metadata.name', operator: '=', value: 'web' }]],
    ['metadata.name==web', [{ field: 'metadata.name', operator: '==', value: 'web' }]],
    ['spec.type!=NodePort', [{ field: 'spec.type', operator: '!=', value: 'NodePort' }]],
    ['metadata.name=', [{ field: 'metadata.name', operator: '=', value: '' }]],
    // terms are sorted
    [
      'spec.type=NodePort,metadata.namespace=default',
      [
        { field: 'metadata.namespace', operator: '=', value: 'default' },
        { field: 'spec.type', operator: '=', value: 'NodePort' },
      ],
    ],
    // escapes: \, \= \\ in values; an escaped comma does not split
    ['metadata.name=a\\,b\\=c\\\\d', [{ field: 'metadata.name', operator: '=', value: 'a,b=c\\d' }]],
  ])('%j', (text, requirements) => {
    expect(parse(text).requirements).toEqual(requirements);
  });

  it.each([
    ['spec.foo=x', 'field label not supported: spec.foo'],
    ['spec.foo=x,metadata.name=web', 'field label not supported: spec.foo'],
    ['status.x=1,spec.foo=x', 'field label not supported: spec.foo'], // first in sort order
    ['=x', 'field label not supported: '],
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['spec.foo=x,bogus', "invalid selector: 'spec.foo=x,bogus'; can't understand 'bogus'"], // parse before transform
    ['metadata.name=a=b', 'invalid field selector: unescaped character in value: 61'],
    ['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('rejects %j', (text, message) => {
    let err: unknown;
    try {
      parse(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toBe(message);
  });
});

describe('matching Services', () => {
  it('builds the four selectable fields', () => {
    expect(serviceFieldSet(web)).toEqual({
      'metadata.name': 'web',
      'metadata.namespace': 'default',
      'spec.clusterIP': '10.96.0.10',
      'spec.type': 'NodePort',
    });
  });

  it.each([
    ['', true],
    ['spec.type=NodePort', true],
    ['spec.type=ClusterIP', false],
    ['spec.type!=ClusterIP', true],
    ['metadata.name=web,metadata.namespace=default', true],
    ['metadata.name=web,metadata.namespace=other', false],
    ['spec.clusterIP=10.96.0.10', true],
  ])('%j → %s', (text, expected) => {
    expect(matchesFields(parse(text), serviceFieldSet(web))).toBe(expected);
  });

  it('reads a missing field as empty', () => {
    expect(matchesFields(parseFieldSelector('x=', ['x']), {})).toBe(true);
    expect(matchesFields(parseFieldSelector('x!=', ['x']), {})).toBe(false);
  });

  it('reports the value a selector requires', () => {
    expect(requiredFieldValue(parse('spec.type!=x,metadata.name=web'), 'metadata.name')).toBe('web');
    expect(requiredFieldValue(parse('metadata.name!=web'), 'metadata.name')).toBeUndefined();
  });
});
