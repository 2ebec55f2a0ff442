import { message, messages, namedEntries, str } from '../../test/openapi/protobuf-reader';
import { encodeGnosticDocument } from './gnostic-openapi-v2-encoder';
import type { OpenApiObject } from './openapi-value';

// client-protocol.md §4.3: the 644-byte document verified with kubectl 1.27, 1.28 and 1.32.
const MINIMAL_BASE64 =
  'CgMyLjASFQoKS3ViZXJuZXRlcxIHdjEuMzIuMELlBBKpAgouL2FwaS92MS9uYW1lc3BhY2VzL3tuYW1lc3BhY2V9L3NlcnZpY2Vz' +
  'L3tuYW1lfRL2AULzASoccGF0Y2hDb3JlVjFOYW1lc3BhY2VkU2VydmljZUIdChsSGRoXEgVxdWVyeSIGZHJ5UnVuMgZzdHJpbmdC' +
  'IwohEh8aHRIFcXVlcnkiDGZpZWxkTWFuYWdlcjIGc3RyaW5nQiYKJBIiGiASBXF1ZXJ5Ig9maWVsZFZhbGlkYXRpb24yBnN0cmlu' +
  'Z0IcChoSGBoWEgVxdWVyeSIFZm9yY2UyBnN0cmluZ2pJCh94LWt1YmVybmV0ZXMtZ3JvdXAtdmVyc2lvbi1raW5kEiYSJGdyb3Vw' +
  'OiAiIgpraW5kOiBTZXJ2aWNlCnZlcnNpb246IHYxChK2Ago1L2FwaS92MS9uYW1lc3BhY2VzL3tuYW1lc3BhY2V9L3NlcnZpY2Vz' +
  'L3tuYW1lfS9zdGF0dXMS/AFC+QEqInBhdGNoQ29yZVYxTmFtZXNwYWNlZFNlcnZpY2VTdGF0dXNCHQobEhkaFxIFcXVlcnkiBmRy' +
  'eVJ1bjIGc3RyaW5nQiMKIRIfGh0SBXF1ZXJ5IgxmaWVsZE1hbmFnZXIyBnN0cmluZ0ImCiQSIhogEgVxdWVyeSIPZmllbGRWYWxp' +
  'ZGF0aW9uMgZzdHJpbmdCHAoaEhgaFhIFcXVlcnkiBWZvcmNlMgZzdHJpbmdqSQofeC1rdWJlcm5ldGVzLWdyb3VwLXZlcnNpb24t' +
  'a2luZBImEiRncm91cDogIiIKa2luZDogU2VydmljZQp2ZXJzaW9uOiB2MQo=';

function minimalSwagger(): OpenApiObject {
  const query = (name: string) => ({ in: 'query', name, type: 'string' });
  const patch = (operationId: string) => ({
    patch: {
      operationId,
      parameters: ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map(query),
      'x-kubernetes-group-version-kind': { group: '', kind: 'Service', version: 'v1' },
    },
  });
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths: {
      '/api/v1/namespaces/{namespace}/services/{name}': patch('patchCoreV1NamespacedService'),
      '/api/v1/namespaces/{namespace}/services/{name}/status': patch('patchCoreV1NamespacedServiceStatus'),
    },
  };
}

describe('gnostic OpenAPI v2 encoder', () => {
  it('reproduces the verified 644-byte document byte for byte', () => {
    const bytes = encodeGnosticDocument(minimalSwagger());
    expect(bytes).toHaveLength(644);
    expect(bytes.toString('base64')).toBe(MINIMAL_BASE64);
  });

  it('encodes schemas: $ref, type, items, properties, defaults and extensions', () => {
    const bytes = encodeGnosticDocument({
      swagger: '2.0',
      definitions: {
        Thing: {
          description: 'a thing',
          properties: {
            ports: {
              items: { $ref: '#/definitions/Port', default: {} },
              type: 'array',
              'x-kubernetes-list-map-keys': ['port', 'protocol'],
            },
            selector: { additionalProperties: { default: '', type: 'string' }, type: 'object' },
          },
          required: ['ports'],
          type: 'object',
          'x-kubernetes-group-version-kind': [{ group: '', kind: 'Thing', version: 'v1' }],
        },
      },
    });
    const definitions = namedEntries(message(bytes, 9), 1);
    const thing = definitions.get('Thing')!;
    expect(str(thing, 4)).toBe('a thing');
    expect(messages(thing, 19).map((b) => b.toString())).toEqual(['ports']);
    expect(str(message(thing, 22), 1)).toBe('object');
    const gvk = namedEntries(thing, 31).get('x-kubernetes-group-version-kind');
    expect(str(gvk, 2)).toBe('- group: ""\n  kind: Thing\n  version: v1\n');

    const properties = namedEntries(message(thing, 25), 1);
    const ports = properties.get('ports')!;
    expect(str(message(ports, 22), 1)).toBe('array');
    const item = message(message(ports, 23), 1)!;
    expect(str(item, 1)).toBe('#/definitions/Port');
    expect(str(message(item, 5), 2)).toBe('{}\n');
    expect(str(namedEntries(ports, 31).get('x-kubernetes-list-map-keys'), 2)).toBe('- port\n- protocol\n');
    const selectorValues = message(message(properties.get('selector'), 21), 1)!;
    expect(str(message(selectorValues, 22), 1)).toBe('string');
    expect(str(message(selectorValues, 5), 2)).toBe('""\n');
  });

  it('encodes body, path and query parameters and responses', () => {
    const bytes = encodeGnosticDocument({
      swagger: '2.0',
      paths: {
        '/x/{name}': {
          parameters: [{ description: 'name', in: 'path', name: 'name', required: true, type: 'string', uniqueItems: true }],
          put: {
            parameters: [{ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/X' } }],
            responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/X' } }, '401': { description: 'Unauthorized' } },
          },
        },
      },
    });
    const item = namedEntries(message(bytes, 8), 2).get('/x/{name}')!;
    const pathParam = message(message(message(message(item, 9), 1), 2), 4)!;
    expect([str(pathParam, 2), str(pathParam, 4), str(pathParam, 5)]).toEqual(['path', 'name', 'string']);
    const put = message(item, 3)!;
    const body = message(message(message(put, 8), 1), 1)!;
    expect([str(body, 2), str(body, 3), str(message(body, 5), 1)]).toEqual(['body', 'body', '#/definitions/X']);
    const responses = namedEntries(message(put, 9), 1);
    expect([...responses.keys()]).toEqual(['200', '401']);
    const ok = message(responses.get('200'), 1)!;
    expect(str(ok, 1)).toBe('OK');
    expect(str(message(message(ok, 2), 1), 1)).toBe('#/definitions/X');
  });

  it('refuses what it cannot represent instead of dropping it', () => {
    expect(() => encodeGnosticDocument({ swagger: '2.0', definitions: { X: { oneOf: [{ type: 'string' }] } } })).toThrow(/definitions\.X\.oneOf: unknown field/);
    expect(() => encodeGnosticDocument({ swagger: '2.0', paths: { '/x': { get: { parameters: [{ in: 'cookie', name: 'c' }] } } } })).toThrow(/unknown parameter location cookie/);
  });
});
