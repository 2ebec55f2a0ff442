import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { isOpenApiObject, type OpenApiObject, type OpenApiValue } from './openapi-value';
import { openApiV3Index } from './openapi-v3-index';
import { buildServiceOpenApiV3, SERVICE_OPENAPI_V3 } from './service-openapi-v3';
import { SCHEMA_REF_PREFIX, SERVICE_SCHEMAS } from './service-openapi-schemas';

const CORE = 'io.k8s.api.core.v1.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** Every interface in service.types.ts and the schema that describes it. */
const SCHEMA_FOR_INTERFACE: Record<string, string> = {
  OwnerReference: META + 'OwnerReference',
  ManagedFieldsEntry: META + 'ManagedFieldsEntry',
  ObjectMeta: META + 'ObjectMeta',
  ServicePort: CORE + 'ServicePort',
  ClientIPConfig: CORE + 'ClientIPConfig',
  SessionAffinityConfig: CORE + 'SessionAffinityConfig',
  ServiceSpec: CORE + 'ServiceSpec',
  PortStatus: CORE + 'PortStatus',
  LoadBalancerIngress: CORE + 'LoadBalancerIngress',
  LoadBalancerStatus: CORE + 'LoadBalancerStatus',
  Condition: META + 'Condition',
  ServiceStatus: CORE + 'ServiceStatus',
  Service: CORE + 'Service',
};

function interfaceFields(): Map<string, string[]> {
  const file = join(__dirname, '..', 'domain', 'service.types.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found = new Map<string, string[]>();
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node)) return;
    const names = node.members.filter(ts.isPropertySignature).map((m) => m.name.getText(source));
    found.set(node.name.text, names);
  });
  return found;
}

function collectRefs(value: OpenApiValue, into: string[]): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, into));
  else if (isOpenApiObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') into.push(v);
      else collectRefs(v, into);
    }
  }
  return into;
}

function operations(document: OpenApiObject): [string, string, OpenApiObject][] {
  const out: [string, string, OpenApiObject][] = [];
  for (const [path, item] of Object.entries(document.paths as OpenApiObject)) {
    for (const [method, op] of Object.entries(item as OpenApiObject)) if (method !== 'parameters') out.push([path, method, op as OpenApiObject]);
  }
  return out;
}

describe('the /openapi/v3/api/v1 document', () => {
  const document = buildServiceOpenApiV3();

  it('resolves every $ref to a schema it carries, and carries no unreachable schema', () => {
    const refs = collectRefs(document, []);
    for (const ref of refs) {
      expect(ref.startsWith(SCHEMA_REF_PREFIX)).toBe(true);
      expect(SERVICE_SCHEMAS[ref.slice(SCHEMA_REF_PREFIX.length)]).toBeDefined();
    }
    // Closure from the paths reaches every schema. Status is every error body; upstream reaches
    // it through deletecollection, which svctrail does not serve.
    const reached = new Set<string>();
    const queue = [...collectRefs(document.paths, []).map((r) => r.slice(SCHEMA_REF_PREFIX.length)), META + 'Status'];
    while (queue.length) {
      const name = queue.pop()!;
      if (reached.has(name)) continue;
      reached.add(name);
      queue.push(...collectRefs(SERVICE_SCHEMAS[name], []).map((r) => r.slice(SCHEMA_REF_PREFIX.length)));
    }
    expect([...reached].sort()).toEqual(Object.keys(SERVICE_SCHEMAS).sort());
  });

  it('describes exactly the fields of every type in service.types.ts', () => {
    const fields = interfaceFields();
    expect([...fields.keys()].sort()).toEqual(Object.keys(SCHEMA_FOR_INTERFACE).sort());
    for (const [name, names] of fields) {
      const schema = SERVICE_SCHEMAS[SCHEMA_FOR_INTERFACE[name]];
      expect({ name, fields: Object.keys(schema.properties as OpenApiObject).sort() }).toEqual({ name, fields: [...names].sort() });
    }
  });

  it('gives every property a description and a type or a $ref', () => {
    for (const [name, schema] of Object.entries(SERVICE_SCHEMAS)) {
      expect(typeof schema.description).toBe('string');
      for (const [field, property] of Object.entries((schema.properties ?? {}) as OpenApiObject)) {
        const p = property as OpenApiObject;
        expect({ at: `${name}.${field}`, described: typeof p.description === 'string' }).toEqual({ at: `${name}.${field}`, described: true });
        expect({ at: `${name}.${field}`, typed: typeof p.type === 'string' || Array.isArray(p.allOf) }).toEqual({ at: `${name}.${field}`, typed: true });
      }
    }
  });

  it('marks Service and ServiceList with the array-form GVK kubectl explain looks up', () => {
    expect(SERVICE_SCHEMAS[CORE + 'Service']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Service', version: 'v1' }]);
    expect(SERVICE_SCHEMAS[CORE + 'ServiceList']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'ServiceList', version: 'v1' }]);
  });

  it('carries the strategic-merge keys apply relies on', () => {
    const spec = SERVICE_SCHEMAS[CORE + 'ServiceSpec'].properties as OpenApiObject;
    expect(spec.ports).toMatchObject({
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'port',
      'x-kubernetes-patch-strategy': 'merge',
    });
    const status = SERVICE_SCHEMAS[CORE + 'ServiceStatus'].properties as OpenApiObject;
    expect(status.conditions).toMatchObject({ 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' });
    const lb = SERVICE_SCHEMAS[CORE + 'LoadBalancerStatus'].properties as OpenApiObject;
    expect(lb.ingress).toMatchObject({ items: { allOf: [{ $ref: SCHEMA_REF_PREFIX + CORE + 'LoadBalancerIngress' }] }, 'x-kubernetes-list-type': 'atomic' });
  });

  it('lists the operations svctrail serves, each tagged with the Service GVK', () => {
    const served = operations(document).map(([path, method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`);
    expect(served.sort()).toEqual(
      [
        'GET /api/v1/namespaces/{namespace}/services listCoreV1NamespacedService',
        'POST /api/v1/namespaces/{namespace}/services createCoreV1NamespacedService',
        'DELETE /api/v1/namespaces/{namespace}/services/{name} deleteCoreV1NamespacedService',
        'GET /api/v1/namespaces/{namespace}/services/{name} readCoreV1NamespacedService',
        'PATCH /api/v1/namespaces/{namespace}/services/{name} patchCoreV1NamespacedService',
        'PUT /api/v1/namespaces/{namespace}/services/{name} replaceCoreV1NamespacedService',
        'GET /api/v1/namespaces/{namespace}/services/{name}/status readCoreV1NamespacedServiceStatus',
        'PATCH /api/v1/namespaces/{namespace}/services/{name}/status patchCoreV1NamespacedServiceStatus',
        'PUT /api/v1/namespaces/{namespace}/services/{name}/status replaceCoreV1NamespacedServiceStatus',
        'GET /api/v1/services listCoreV1ServiceForAllNamespaces',
      ].sort(),
    );
    for (const [, , op] of operations(document)) {
      expect(op['x-kubernetes-group-version-kind']).toEqual({ group: '', kind: 'Service', version: 'v1' });
    }
  });

  it('declares dryRun, fieldManager, fieldValidation and force on every PATCH, so kubectl validates on the server', () => {
    const patches = operations(document).filter(([, method]) => method === 'patch');
    expect(patches).toHaveLength(2);
    for (const [, , op] of patches) {
      const query = (op.parameters as OpenApiObject[]).filter((p) => p.in === 'query').map((p) => p.name);
      expect(query).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    }
  });

  it('is published under a stable upper-case SHA-512 hash that the index points at', () => {
    expect(SERVICE_OPENAPI_V3.hash).toMatch(/^[0-9A-F]{128}$/);
    expect(SERVICE_OPENAPI_V3.etag).toBe(`"${SERVICE_OPENAPI_V3.hash}"`);
    expect(JSON.parse(SERVICE_OPENAPI_V3.bytes.toString())).toEqual(document);
    expect(JSON.stringify(buildServiceOpenApiV3())).toBe(SERVICE_OPENAPI_V3.bytes.toString());
    expect((openApiV3Index().paths as OpenApiObject)['api/v1']).toEqual({ serverRelativeURL: `/openapi/v3/api/v1?hash=${SERVICE_OPENAPI_V3.hash}` });
  });
});
