import { parse as parseYaml } from 'yaml';
import { message, messages, namedEntries, str } from '../../test/openapi/protobuf-reader';
import { isOpenApiObject, type OpenApiObject, type OpenApiValue } from './openapi-value';
import { buildSwagger, OPENAPI_V2_JSON_DOCUMENT, OPENAPI_V2_PROTOBUF_DOCUMENT } from './openapi-v2';

function walk(value: OpenApiValue, visit: (key: string, v: OpenApiValue) => void): void {
  if (Array.isArray(value)) value.forEach((v) => walk(v, visit));
  else if (isOpenApiObject(value))
    for (const [key, v] of Object.entries(value)) {
      visit(key, v);
      walk(v, visit);
    }
}

describe('the /openapi/v2 document', () => {
  const swagger = buildSwagger();
  const definitions = swagger.definitions as OpenApiObject;

  it('is Swagger 2.0 with #/definitions refs that all resolve, and nothing Swagger 2.0 lacks', () => {
    expect(swagger.swagger).toBe('2.0');
    walk(swagger, (key, v) => {
      expect(['allOf', 'oneOf', 'requestBody', 'content', 'components']).not.toContain(key);
      if (key === '$ref') {
        expect(v).toMatch(/^#\/definitions\//);
        expect(definitions[(v as string).slice('#/definitions/'.length)]).toBeDefined();
      }
    });
  });

  it('writes IntOrString and nested types as upstream v2 does', () => {
    expect(definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ type: 'string', format: 'int-or-string' });
    const service = (definitions['io.k8s.api.core.v1.Service'] as OpenApiObject).properties as OpenApiObject;
    expect(service.spec).toMatchObject({ $ref: '#/definitions/io.k8s.api.core.v1.ServiceSpec' });
  });

  it('turns request bodies into body parameters and keeps fieldValidation on PATCH', () => {
    const paths = swagger.paths as OpenApiObject;
    const patch = (paths['/api/v1/namespaces/{namespace}/services/{name}'] as OpenApiObject).patch as OpenApiObject;
    const parameters = patch.parameters as OpenApiObject[];
    expect(parameters[0]).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(parameters.slice(1).map((p) => [p.name, p.in, p.type])).toEqual([
      ['dryRun', 'query', 'string'],
      ['fieldManager', 'query', 'string'],
      ['fieldValidation', 'query', 'string'],
      ['force', 'query', 'boolean'],
    ]);
    expect(patch.consumes).toContain('application/strategic-merge-patch+json');
    expect(patch.produces).toContain('application/json');
  });

  it('serves the same document as JSON', () => {
    expect(JSON.parse(OPENAPI_V2_JSON_DOCUMENT.bytes.toString())).toEqual(swagger);
  });

  describe('as gnostic protobuf', () => {
    const bytes = OPENAPI_V2_PROTOBUF_DOCUMENT.bytes;

    it('round-trips the header fields', () => {
      expect(str(bytes, 1)).toBe('2.0');
      expect(str(message(bytes, 2), 1)).toBe('Kubernetes');
      const security = message(message(bytes, 12), 1)!;
      expect(str(security, 1)).toBe('BearerToken');
    });

    it('declares fieldValidation on each Service PATCH the way kubectl 1.27/1.28 look for it', () => {
      const paths = namedEntries(message(bytes, 8), 2);
      expect([...paths.keys()].sort()).toEqual(Object.keys(swagger.paths as OpenApiObject).sort());
      for (const path of ['/api/v1/namespaces/{namespace}/services/{name}', '/api/v1/namespaces/{namespace}/services/{name}/status']) {
        const patch = message(paths.get(path), 8)!;
        const gvk = namedEntries(patch, 13).get('x-kubernetes-group-version-kind');
        expect(parseYaml(str(gvk, 2)!)).toEqual({ group: '', kind: 'Service', version: 'v1' });
        const queryNames = messages(patch, 8)
          .map((item) => message(message(message(item, 1), 2), 3))
          .filter((q): q is Buffer => q !== undefined)
          .map((q) => str(q, 4));
        expect(queryNames).toContain('fieldValidation');
      }
    });

    it('declares fieldValidation on the events.k8s.io Event PATCH, tagged with its GVK', () => {
      const patch = message(namedEntries(message(bytes, 8), 2).get('/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}'), 8)!;
      expect(parseYaml(str(namedEntries(patch, 13).get('x-kubernetes-group-version-kind'), 2)!)).toEqual({ group: 'events.k8s.io', kind: 'Event', version: 'v1' });
      const queryNames = messages(patch, 8)
        .map((item) => message(message(message(item, 1), 2), 3))
        .filter((q): q is Buffer => q !== undefined)
        .map((q) => str(q, 4));
      expect(queryNames).toContain('fieldValidation');
      const event = namedEntries(message(bytes, 9), 1).get('io.k8s.api.events.v1.Event')!;
      expect(parseYaml(str(namedEntries(event, 31).get('x-kubernetes-group-version-kind'), 2)!)).toEqual([{ group: 'events.k8s.io', kind: 'Event', version: 'v1' }]);
    });

    it('carries the Service definitions with their GVK and patch keys', () => {
      const defs = namedEntries(message(bytes, 9), 1);
      expect([...defs.keys()].sort()).toEqual(Object.keys(definitions).sort());
      const service = defs.get('io.k8s.api.core.v1.Service')!;
      const gvk = namedEntries(service, 31).get('x-kubernetes-group-version-kind');
      expect(parseYaml(str(gvk, 2)!)).toEqual([{ group: '', kind: 'Service', version: 'v1' }]);
      const spec = defs.get('io.k8s.api.core.v1.ServiceSpec')!;
      const ports = namedEntries(message(spec, 25), 1).get('ports')!;
      const extensions = namedEntries(ports, 31);
      expect(parseYaml(str(extensions.get('x-kubernetes-patch-merge-key'), 2)!)).toBe('port');
      expect(parseYaml(str(extensions.get('x-kubernetes-patch-strategy'), 2)!)).toBe('merge');
      expect(str(message(message(ports, 23), 1), 1)).toBe('#/definitions/io.k8s.api.core.v1.ServicePort');
    });
  });
});
